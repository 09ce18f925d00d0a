package spirv

// Rule is a rule a module must follow, as reported in diagnostics.
type Rule struct {
	ID      string // e.g. "binary.word-count"
	Summary string // what the rule requires, in one line
}

// Rules lists the rules the reader enforces: a module breaking one cannot
// be decoded.
var Rules = []Rule{
	{"binary.truncated", "the module holds a whole header and a whole number of 32-bit words"},
	{"binary.magic", "the module starts with the SPIR-V magic number, in either byte order"},
	{"binary.version", "the header's version is SPIR-V 1.0 to 1.6"},
	{"binary.bound", "the header's <id> bound is within the universal limit (4194304)"},
	{"binary.word-count", "every instruction's word count is non-zero and stays within the module"},
	{"binary.opcode", "every opcode is one the SPIR-V grammar defines"},
	{"binary.operand", "an instruction's words match its operands: none missing, none extra"},
	{"binary.id-bound", "every <id> operand satisfies 0 < id < bound"},
	{"binary.enum", "every enumerant operand (and each bit of a mask) is defined by the grammar"},
	{"binary.string", "every literal string ends with a NUL within its instruction"},
	{"binary.literal-type", "a numeric literal's type (constant result type, switch selector type) is a scalar integer or float defined earlier"},
	{"binary.ext-set", "OpExtInstImport names a known extended instruction set, and OpExtInst refers to one"},
	{"binary.ext-inst", "OpExtInst names an instruction of its set"},
	{"binary.spec-op", "OpSpecConstantOp's operation is an opcode with a result"},
	{"binary.result-redefined", "a result <id> is defined by one instruction only"},
	{"layout.function", "functions are OpFunction, parameters, blocks (OpLabel ... terminator), OpFunctionEnd, not nested"},
}
