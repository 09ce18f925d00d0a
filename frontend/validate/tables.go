package validate

import "sync"

// The tables the checks look opcodes, operand kinds and enumerants up in
// are derived from the grammar. They are built on the first validation
// rather than at start-up: every process of the command links this
// package, most of them (version, -rules, a cached compile) validate
// nothing, and the tables cost more than half a millisecond and half a
// megabyte to build. The validation code reads them as package variables;
// Module calls loadTables once per run, so no check pays a test per
// instruction. Code that reads a table outside Module (a test) calls
// loadTables first.

var tablesOnce sync.Once

// loadTables builds the tables, once.
func loadTables() { tablesOnce.Do(buildTables) }

// buildTables builds every table, each after those it reads.
func buildTables() {
	// Sizes and dense numberings (env_common.go).
	envMaxCapability = buildEnvMaxCapability()
	envMaxOpcode = buildEnvMaxOpcode()
	envKindCat = buildEnvKindCat()
	envOpDense = buildEnvOpDense()
	envEnumDense = buildEnvEnumDense()
	envExtEnums = buildEnvExtEnums()

	// The structural families.
	stOpSorts = buildStOpSorts()
	stSortOf = buildStSortOf()
	stValueOnly = buildStValueOnly()
	stPlain = buildStPlain()
	stFastClasses = buildStFastClasses()
	stMemberOps = buildStMemberOps()
	stSections = buildStSections()
	stLayoutPlain = buildStLayoutPlain()
	stArgStart = buildStArgStart()
	stHasScope = buildStHasScope()
	opxClasses = buildOpxClasses()
	opxNeeds = buildOpxNeeds()

	// The environment families.
	envCapabilities = buildEnvCapabilities()
	envCapIndex = buildEnvCapIndex()
	envFastEnum = buildEnvFastEnum()
	envOpMet = buildEnvOpMet()
	envEnumMet = buildEnvEnumMet()
	envAtomicPtr = buildEnvAtomicPtr()
	buildEnvMasks() // (reads the sets, which read the tables above)
}
