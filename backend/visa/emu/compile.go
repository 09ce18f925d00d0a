package emu

import (
	"fmt"
	"sync"

	"spv2visa/backend/visa"
)

// compiler turns instructions into functions over the thread state.
type compiler struct {
	prog   *Program
	labels map[*visa.Var]int
	at     int
}

// handler compiles one instruction form.
type handler func(c *compiler, in *visa.Inst) (func(*thread), error)

// handlers is the table of supported instruction forms, filled from
// the ALU, control-flow and message tables the first time a program is
// compiled (the compiler itself never runs the emulator, and should not
// build its tables at every start).
var handlers = sync.OnceValue(func() map[visa.Op]handler {
	h := map[visa.Op]handler{}
	for _, reg := range []func(map[visa.Op]handler){regALU, regCompile, regFlow, regLSC, regMsg, regSample, regTyped} {
		reg(h)
	}
	return h
})

func (c *compiler) inst(in *visa.Inst) (fn func(*thread), err error) {
	h := handlers()[in.Op]
	if h == nil {
		return nil, fmt.Errorf("%s is not supported by the emulator", in.Op)
	}
	defer func() {
		// A malformed instruction (missing operands) must fail the run,
		// not the emulator.
		if p := recover(); p != nil {
			fn, err = nil, fmt.Errorf("malformed instruction: %v", p)
		}
	}()
	return h(c, in)
}

// args checks that an instruction has at least n operands.
func args(in *visa.Inst, n int) error {
	if len(in.Args) < n {
		return fmt.Errorf("%s needs %d operands, has %d", in.Op, n, len(in.Args))
	}
	return nil
}

func lit(in *visa.Inst, n int) int64 {
	if n < len(in.Lits) {
		return in.Lits[n]
	}
	return 0
}

func nop(*thread) {}

func regCompile(handlers map[visa.Op]handler) {
	handlers[visa.OpLabel] = func(*compiler, *visa.Inst) (func(*thread), error) { return nop, nil }
	handlers[visa.OpSubroutine] = func(c *compiler, in *visa.Inst) (func(*thread), error) {
		if c.at == 0 {
			return nop, nil
		}
		// A call enters after the label: reaching it means the code
		// before fell through.
		name := in.Args[0].Var.Name
		return func(t *thread) { t.fail("execution fell through into subroutine %s", name) }, nil
	}
	for _, op := range []visa.Op{visa.OpLifetime, visa.OpYield, visa.OpWait} {
		handlers[op] = handlers[visa.OpLabel]
	}
}
