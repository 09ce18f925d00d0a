package validate

// The tables the checks look opcodes, operand kinds and enumerants up in
// are derived from the grammar by the build… functions next to each, but
// held as static data in tables_gen.go: every process of the command
// links this package, and building them cost the first validation more
// than half a millisecond and most of a megabyte of allocation, a tenth
// of a small compile. TestTablesGenerated builds them afresh and fails
// when tables_gen.go differs;
//
//	go test ./frontend/validate -run TestTablesGenerated -update
//
// rewrites it. The generated literals are plain constants (no calls, no
// maps), so that the linker lays them out and no code runs at start-up.
