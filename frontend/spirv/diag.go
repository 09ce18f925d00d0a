package spirv

import (
	"fmt"
	"strings"

	"spv2visa/grammar"
)

// Severity of a diagnostic.
type Severity uint8

const (
	SevError Severity = iota
	SevWarning
)

func (s Severity) String() string {
	if s == SevWarning {
		return "warning"
	}
	return "error"
}

// MarshalText writes the severity's name (for JSON output).
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is one finding about a module: the rule broken, a message,
// and where: the word offset of the offending instruction with its
// disassembly.
type Diagnostic struct {
	Severity Severity       `json:"severity"`
	Rule     string         `json:"rule"`
	Msg      string         `json:"message"`
	Offset   int            `json:"word_offset"` // -1 when no instruction is at fault
	Opcode   grammar.Opcode `json:"-"`
	OpName   string         `json:"opcode,omitempty"`
	Result   ID             `json:"result_id,omitempty"`
	Inst     string         `json:"instruction,omitempty"` // disassembled
}

// Format renders d for a file:
//
//	k.spv: error: rule-id: message
//	  word 123: %5 = OpIAdd %uint %3 %4
func (d *Diagnostic) Format(file string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s: %s: %s", file, d.Severity, d.Rule, d.Msg)
	if d.Offset >= 0 {
		fmt.Fprintf(&b, "\n  word %d:", d.Offset)
		if d.Inst != "" {
			b.WriteString(" ")
			b.WriteString(d.Inst)
		} else if d.OpName != "" {
			b.WriteString(" ")
			b.WriteString(d.OpName)
		}
	}
	return b.String()
}

// Error is a reading error: the module could not be decoded.
type Error struct {
	Diagnostic
}

func (e *Error) Error() string {
	s := e.Rule + ": " + e.Msg
	if e.Offset >= 0 {
		s += fmt.Sprintf(" (word %d", e.Offset)
		if e.Inst != "" {
			s += ": " + e.Inst
		}
		s += ")"
	}
	return s
}
