package passes

import (
	"math/big"
	"sync"
)

// The constants of the math expansions, computed once to 1600 bits from
// series (Machin's formula for pi, atanh series for the logarithms) so
// that no digit is copied by hand; each is then split into the pieces an
// expansion needs at its format.

const constPrec = 1600

// atanhInv is atanh(1/n) = sum 1/((2k+1) n^(2k+1)).
func atanhInv(n int64) *big.Float { return arctanSeries(n, false) }

// atanInv is atan(1/n) = sum (-1)^k/((2k+1) n^(2k+1)).
func atanInv(n int64) *big.Float { return arctanSeries(n, true) }

func arctanSeries(n int64, alternate bool) *big.Float {
	sum := new(big.Float).SetPrec(constPrec)
	pow := new(big.Float).SetPrec(constPrec).Quo(big.NewFloat(1).SetPrec(constPrec), new(big.Float).SetInt64(n))
	n2 := new(big.Float).SetPrec(constPrec).SetInt64(n * n)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -constPrec-8)
	for k := int64(0); ; k++ {
		term := new(big.Float).SetPrec(constPrec).Quo(pow, new(big.Float).SetInt64(2*k+1))
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

func bigMul(a *big.Float, x int64) *big.Float {
	return new(big.Float).SetPrec(constPrec).Mul(a, new(big.Float).SetInt64(x))
}

func bigQuo(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(constPrec).Quo(a, b) }

func bigOne() *big.Float { return new(big.Float).SetPrec(constPrec).SetInt64(1) }

// The series below cost milliseconds: every constant is computed the
// first time an expansion needs it, not when the program starts.
var (
	bigPi = lazyBig(func() *big.Float {
		return new(big.Float).SetPrec(constPrec).Sub(bigMul(atanInv(5), 16), bigMul(atanInv(239), 4))
	})
	bigLn2  = lazyBig(func() *big.Float { return bigMul(atanhInv(3), 2) })
	bigLn10 = lazyBig(func() *big.Float {
		return new(big.Float).SetPrec(constPrec).Add(bigMul(bigLn2(), 3), bigMul(atanhInv(9), 2))
	}) // 10 = 8 * 1.25
)

// lazyBig returns f's value, computed once on first use.
func lazyBig(f func() *big.Float) func() *big.Float {
	var once sync.Once
	var x *big.Float
	return func() *big.Float {
		once.Do(func() { x = f() })
		return x
	}
}

// mconst is a real constant with its splits for one format.
type mconst struct{ get func() *big.Float }

// lazyConst is the constant f computes, on first use.
func lazyConst(f func() *big.Float) mconst { return mconst{lazyBig(f)} }

// dd splits the constant into hi + lo at format f.
func (c mconst) dd(f *flt) ddc {
	x := c.get()
	hi := roundBig(x, f.mant+1)
	rest := new(big.Float).SetPrec(constPrec).Sub(x, big.NewFloat(hi).SetPrec(constPrec))
	return ddc{hi, roundBig(rest, f.mant+1)}
}

// v is the constant rounded to format f.
func (c mconst) v(f *flt) float64 { return roundBig(c.get(), f.mant+1) }

// cw splits the constant for Cody-Waite reduction: hi keeps only
// f.mant+1-free bits so that k*hi is exact for |k| < 2^free.
func (c mconst) cw(f *flt, free int) ddc {
	x := c.get()
	hi := roundBig(x, f.mant+1-free)
	rest := new(big.Float).SetPrec(constPrec).Sub(x, big.NewFloat(hi).SetPrec(constPrec))
	return ddc{hi, roundBig(rest, f.mant+1)}
}

// roundBig rounds x to a float64 of prec significant bits.
func roundBig(x *big.Float, prec int) float64 {
	y := new(big.Float).SetPrec(uint(prec)).SetMode(big.ToNearestEven).Set(x)
	v, _ := y.Float64()
	return v
}

var (
	cPi        = mconst{bigPi}
	cPiO2      = lazyConst(func() *big.Float { return bigQuo(bigPi(), big.NewFloat(2)) })
	cPiO4      = lazyConst(func() *big.Float { return bigQuo(bigPi(), big.NewFloat(4)) })
	cInvPi     = lazyConst(func() *big.Float { return bigQuo(bigOne(), bigPi()) })
	cLn2       = mconst{bigLn2}
	cLog2e     = lazyConst(func() *big.Float { return bigQuo(bigOne(), bigLn2()) })
	cLn10      = mconst{bigLn10}
	cLog2_10   = lazyConst(func() *big.Float { return bigQuo(bigLn10(), bigLn2()) })
	cLog10_2   = lazyConst(func() *big.Float { return bigQuo(bigLn2(), bigLn10()) })
	cLog10e    = lazyConst(func() *big.Float { return bigQuo(bigOne(), bigLn10()) })
	cDeg       = lazyConst(func() *big.Float { return bigQuo(big.NewFloat(180), bigPi()) })
	cRad       = lazyConst(func() *big.Float { return bigQuo(bigPi(), big.NewFloat(180)) })
	cLnSqrt2Pi = lazyConst(func() *big.Float {
		return new(big.Float).SetPrec(constPrec).Quo(new(big.Float).SetPrec(constPrec).Add(bigLn2(), bigLog(bigPi())), big.NewFloat(2))
	})
)

// bigLog is log(x) for x in about [1, 4], by atanh((x-1)/(x+1)).
func bigLog(x *big.Float) *big.Float {
	num := new(big.Float).SetPrec(constPrec).Sub(x, bigOne())
	den := new(big.Float).SetPrec(constPrec).Add(x, bigOne())
	s := bigQuo(num, den)
	s2 := new(big.Float).SetPrec(constPrec).Mul(s, s)
	sum := new(big.Float).SetPrec(constPrec)
	pow := new(big.Float).SetPrec(constPrec).Set(s)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -constPrec-8)
	for k := int64(0); ; k++ {
		term := new(big.Float).SetPrec(constPrec).Quo(pow, new(big.Float).SetInt64(2*k+1))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			return bigMul(sum, 2)
		}
		pow.Mul(pow, s2)
	}
}

// twoOverPiWords are the bits of 2/pi after the binary point, 32 to a
// word, most significant first, for Payne-Hanek reduction.
func twoOverPiWords(n int) []uint32 {
	x := bigQuo(big.NewFloat(2), bigPi())
	w := make([]uint32, n)
	for i := range w {
		x.Mul(x, big.NewFloat(1<<32))
		ip, _ := x.Int(nil)
		w[i] = uint32(ip.Uint64())
		x.Sub(x, new(big.Float).SetInt(ip))
	}
	return w
}
