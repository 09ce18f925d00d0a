package passes

import (
	"math/big"
	"sync"
)

// The constants of the math expansions, computed from series (Machin's
// formula for pi, atanh series for the logarithms) so that no digit is
// copied by hand; each is then split into the pieces an expansion needs
// at its format.
//
// 320 bits hold every split exactly: the widest is a binary64 constant
// as hi + lo (106 bits) and the 224 bits of 2/pi that binary32's
// Payne-Hanek reduction reads. TestConstPrecision checks that 1600 bits
// give the same splits. (At 1600 bits the series were a seventh of a
// small kernel's compile.)
const constPrec = 320

// bigSet is pi, ln 2 and ln 10 at one precision, the constants every
// other is derived from; each computed the first time a constant needs
// it.
type bigSet struct {
	prec          uint
	pi, ln2, ln10 func() *big.Float
}

func newBigSet(prec uint) *bigSet {
	s := &bigSet{prec: prec}
	s.pi = sync.OnceValue(func() *big.Float {
		return s.sub(s.mul(s.arctan(5, true), 16), s.mul(s.arctan(239, true), 4))
	})
	// ln 2 and ln 10 from the same three series (ln 2 = 14 atanh(1/31)
	// + 10 atanh(1/49) + 6 atanh(1/161); ln 5 = 32, 24, 14 of them),
	// which converge three times as fast as atanh(1/3).
	logs := sync.OnceValue(func() [3]*big.Float {
		return [3]*big.Float{s.arctan(31, false), s.arctan(49, false), s.arctan(161, false)}
	})
	comb := func(a, b, c int64) *big.Float {
		t := logs()
		return s.add(s.add(s.mul(t[0], a), s.mul(t[1], b)), s.mul(t[2], c))
	}
	s.ln2 = sync.OnceValue(func() *big.Float { return comb(14, 10, 6) })
	s.ln10 = sync.OnceValue(func() *big.Float { return comb(46, 34, 20) })
	return s
}

// bigs is the set at constPrec.
var bigs = sync.OnceValue(func() *bigSet { return newBigSet(constPrec) })

func (s *bigSet) f() *big.Float                  { return new(big.Float).SetPrec(s.prec) }
func (s *bigSet) add(a, b *big.Float) *big.Float { return s.f().Add(a, b) }
func (s *bigSet) sub(a, b *big.Float) *big.Float { return s.f().Sub(a, b) }
func (s *bigSet) quo(a, b *big.Float) *big.Float { return s.f().Quo(a, b) }
func (s *bigSet) mul(a *big.Float, x int64) *big.Float {
	return s.f().Mul(a, new(big.Float).SetInt64(x))
}
func (s *bigSet) num(x int64) *big.Float { return s.f().SetInt64(x) }

// arctan is atan(1/n) = sum (-1)^k/((2k+1) n^(2k+1)) when alternate,
// else atanh(1/n) = sum 1/((2k+1) n^(2k+1)).
func (s *bigSet) arctan(n int64, alternate bool) *big.Float {
	sum := s.f()
	pow := s.quo(s.num(1), s.num(n))
	n2 := s.num(n * n)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(s.prec)-8)
	for k := int64(0); ; k++ {
		term := s.quo(pow, s.num(2*k+1))
		if alternate && k%2 == 1 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
		if term.Cmp(eps) < 0 {
			return sum
		}
		pow.Quo(pow, n2)
	}
}

// log is log(x) for x in about [1, 4], by atanh((x-1)/(x+1)).
func (s *bigSet) log(x *big.Float) *big.Float {
	q := s.quo(s.sub(x, s.num(1)), s.add(x, s.num(1)))
	q2 := s.f().Mul(q, q)
	sum := s.f()
	pow := s.f().Set(q)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(s.prec)-8)
	for k := int64(0); ; k++ {
		term := s.quo(pow, s.num(2*k+1))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			return s.mul(sum, 2)
		}
		pow.Mul(pow, q2)
	}
}

// mconst is a real constant, defined from the base set, with its splits
// for one format.
type mconst struct {
	def func(s *bigSet) *big.Float
	get func() *big.Float // def at constPrec, computed once
}

// lazyConst is the constant def defines, computed on first use.
func lazyConst(def func(s *bigSet) *big.Float) mconst {
	return mconst{def: def, get: sync.OnceValue(func() *big.Float { return def(bigs()) })}
}

// dd splits the constant into hi + lo at format f.
func (c mconst) dd(f *flt) ddc { return splitBig(c.get(), f, 0) }

// v is the constant rounded to format f.
func (c mconst) v(f *flt) float64 { return roundBig(c.get(), f.mant+1) }

// cw splits the constant for Cody-Waite reduction: hi keeps only
// f.mant+1-free bits so that k*hi is exact for |k| < 2^free.
func (c mconst) cw(f *flt, free int) ddc { return splitBig(c.get(), f, free) }

// splitBig is x as hi + lo at format f, hi rounded to f.mant+1-free bits.
func splitBig(x *big.Float, f *flt, free int) ddc {
	hi := roundBig(x, f.mant+1-free)
	rest := new(big.Float).SetPrec(x.Prec()).Sub(x, big.NewFloat(hi))
	return ddc{hi, roundBig(rest, f.mant+1)}
}

// roundBig rounds x to a float64 of prec significant bits.
func roundBig(x *big.Float, prec int) float64 {
	y := new(big.Float).SetPrec(uint(prec)).SetMode(big.ToNearestEven).Set(x)
	v, _ := y.Float64()
	return v
}

var (
	cPi        = lazyConst(func(s *bigSet) *big.Float { return s.pi() })
	cPiO2      = lazyConst(func(s *bigSet) *big.Float { return s.quo(s.pi(), s.num(2)) })
	cPiO4      = lazyConst(func(s *bigSet) *big.Float { return s.quo(s.pi(), s.num(4)) })
	cInvPi     = lazyConst(func(s *bigSet) *big.Float { return s.quo(s.num(1), s.pi()) })
	cLn2       = lazyConst(func(s *bigSet) *big.Float { return s.ln2() })
	cLog2e     = lazyConst(func(s *bigSet) *big.Float { return s.quo(s.num(1), s.ln2()) })
	cLn10      = lazyConst(func(s *bigSet) *big.Float { return s.ln10() })
	cLog2_10   = lazyConst(func(s *bigSet) *big.Float { return s.quo(s.ln10(), s.ln2()) })
	cLog10_2   = lazyConst(func(s *bigSet) *big.Float { return s.quo(s.ln2(), s.ln10()) })
	cLog10e    = lazyConst(func(s *bigSet) *big.Float { return s.quo(s.num(1), s.ln10()) })
	cDeg       = lazyConst(func(s *bigSet) *big.Float { return s.quo(s.num(180), s.pi()) })
	cRad       = lazyConst(func(s *bigSet) *big.Float { return s.quo(s.pi(), s.num(180)) })
	cLnSqrt2Pi = lazyConst(lnSqrt2Pi)
)

// lnSqrt2Pi is log(sqrt(2 pi)) = (ln 2 + log(pi)) / 2.
func lnSqrt2Pi(s *bigSet) *big.Float { return s.quo(s.add(s.ln2(), s.log(s.pi())), s.num(2)) }

// twoOverPiWords are the bits of 2/pi after the binary point, 32 to a
// word, most significant first, for Payne-Hanek reduction.
func twoOverPiWords(s *bigSet, n int) []uint32 {
	x := s.quo(s.num(2), s.pi())
	w := make([]uint32, n)
	for i := range w {
		x.Mul(x, big.NewFloat(1<<32))
		ip, _ := x.Int(nil)
		w[i] = uint32(ip.Uint64())
		x.Sub(x, new(big.Float).SetInt(ip))
	}
	return w
}
