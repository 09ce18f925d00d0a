package passes

// Polynomial coefficients of the math expansions, lowest degree first,
// for binary32 and binary64 (nil where the function has no binary64
// expansion). Each is a minimax fit of relative error (Remez exchange in
// 200-bit arithmetic, coefficients then rounded to the format) of the
// function described above it (absolute error where it says so), in the
// variable given there;
// testdata/passes/mathlib/coeffs.py computes them and prints the error of
// each rounded fit.
var coefs = map[string][2][]float64{
	// (e^r - 1 - r)/r^2 on [-ln2/2, ln2/2]
	"expP": {
		{0x1.0000000000000p-1, 0x1.5554de0000000p-3, 0x1.5555ba0000000p-5, 0x1.120b1e0000000p-7, 0x1.6c69f20000000p-10},
		{0x1.0000000000001p-1, 0x1.555555555554dp-3, 0x1.5555555553d81p-5, 0x1.1111111114484p-7, 0x1.6c16c17881d0cp-10, 0x1.a01a018c33076p-13, 0x1.a019b92f72cc4p-16, 0x1.71de5a3ad8dc4p-19, 0x1.289160cd06ecdp-22, 0x1.aeaaf97d8b834p-26},
	},
	// (e^r - 1)/r on [-ln2/2, ln2/2]
	"expT": {
		{0x1.0000000000000p+0, 0x1.fffffe0000000p-2, 0x1.55547e0000000p-3, 0x1.5556520000000p-5, 0x1.123cd80000000p-7, 0x1.6c16a60000000p-10},
		{0x1.0000000000000p+0, 0x1.0000000000005p-1, 0x1.5555555555530p-3, 0x1.555555555211bp-5, 0x1.111111111a250p-7, 0x1.6c16c17f2a549p-10, 0x1.a01a017106377p-13, 0x1.a019a6b08aa85p-16, 0x1.71de8e6322592p-19, 0x1.28a27ffef7cecp-22, 0x1.ae644ebb0794bp-26},
	},
	// (2^r - 1)/r on [-1/2, 1/2]
	"exp2T": {
		{0x1.62e4300000000p-1, 0x1.ebfbde0000000p-3, 0x1.c6af6e0000000p-5, 0x1.3b2ba00000000p-7, 0x1.5f07b40000000p-10, 0x1.4308fa0000000p-13},
		{0x1.62e42fefa39efp-1, 0x1.ebfbdff82c598p-3, 0x1.c6b08d704a08ep-5, 0x1.3b2ab6fba1e40p-7, 0x1.5d87fe78b2115p-10, 0x1.4309130958e8ep-13, 0x1.ffcbfc1ea53a3p-17, 0x1.62bfd4b4aa51ep-20, 0x1.b525a08f2cdd1p-24, 0x1.e605d2919780ep-28, 0x1.e8cabe6380da8p-32},
	},
	// (log(1+f) - f)/f^2 on [-1/3, 1/3]
	"logQ": {
		{-0x1.0000000000000p-1, 0x1.55552c0000000p-2, -0x1.ffff680000000p-3, 0x1.99bfe20000000p-3, -0x1.5586060000000p-3, 0x1.1fd6880000000p-3, -0x1.f5c7880000000p-4, 0x1.19b1e80000000p-3, -0x1.01f2ee0000000p-3},
		nil,
	},
	// 2(atanh(s) - s)/s^3 in z = s^2, s in [0, (sqrt2-1)/(sqrt2+1)]
	"logL": {
		{0x1.5555560000000p-1, 0x1.9999ec0000000p-2, 0x1.245c340000000p-2, 0x1.ddd19c0000000p-3},
		{0x1.5555555555555p-1, 0x1.9999999999a38p-2, 0x1.2492492476b9bp-2, 0x1.c71c720177793p-3, 0x1.745cf8f904e37p-3, 0x1.3b1c3799fa871p-3, 0x1.0fbe5e3f50dfdp-3, 0x1.0c05b8670dea7p-3},
	},
	// (sin(r) - r)/r^3 in z = r^2, |r| <= pi/4
	"sinS": {
		{-0x1.5555560000000p-3, 0x1.11110e0000000p-7, -0x1.a013a20000000p-13, 0x1.6dbc440000000p-19},
		{-0x1.5555555555555p-3, 0x1.1111111111110p-7, -0x1.a01a01a01992ap-13, 0x1.71de3a545f19ep-19, -0x1.ae6454107440dp-26, 0x1.61217d6079f92p-33, -0x1.ab16ed685ebd3p-41},
	},
	// (cos(r) - 1 + r^2/2)/r^4 in z = r^2, |r| <= pi/4
	"cosC": {
		{0x1.5555560000000p-5, -0x1.6c16c00000000p-10, 0x1.a015c20000000p-16, -0x1.25238e0000000p-22},
		{0x1.5555555555555p-5, -0x1.6c16c16c16c16p-10, 0x1.a01a01a019d06p-16, -0x1.27e4fb7712685p-22, 0x1.1eed8deaebdefp-29, -0x1.9394b91570ba4p-37, 0x1.ab77d561da914p-45},
	},
	// (atan(v) - v)/v^3 in z = v^2, |v| <= tan(pi/8)
	"atanA": {
		{-0x1.5555560000000p-2, 0x1.99997c0000000p-3, -0x1.248a2c0000000p-3, 0x1.c57e420000000p-4, -0x1.6155620000000p-4, 0x1.9dda7c0000000p-5},
		{-0x1.5555555555555p-2, 0x1.9999999999997p-3, -0x1.24924924920bfp-3, 0x1.c71c71c6deb2ap-4, -0x1.745d17359a23bp-4, 0x1.3b13aeb0c016bp-4, -0x1.1110cf7753fa1p-4, 0x1.e1d8f92f5cdb9p-5, -0x1.aebdadaa06e0cp-5, 0x1.82a04273c97dep-5, -0x1.50494541b6c74p-5, 0x1.f6291306620dep-6, -0x1.c88249b18b483p-7},
	},
	// (asin(v) - v)/v^3 in z = v^2, |v| <= 1/2
	"asinB": {
		{0x1.5555540000000p-3, 0x1.33343c0000000p-4, 0x1.6d59020000000p-5, 0x1.fdcb1c0000000p-6, 0x1.17dda80000000p-6, 0x1.14e3200000000p-5},
		{0x1.5555555555556p-3, 0x1.3333333332e84p-4, 0x1.6db6db6e38801p-5, 0x1.f1c71c19d54ddp-6, 0x1.6e8bb25ddf742p-6, 0x1.1c4d286b76508p-6, 0x1.c9d08bc85a2a2p-7, 0x1.7817d8ba4ff54p-7, 0x1.529e18f060670p-7, 0x1.62a4a9b30a94cp-8, 0x1.1f1b117f871e4p-6, -0x1.eccfa44a0f141p-7, 0x1.d93908662f19bp-6},
	},
	// cbrt(m), m in [1, 2]: a start for Newton's iteration
	"cbrtC": {
		{0x1.e4b0ca0000000p-2, 0x1.ad23520000000p-1, -0x1.e07d840000000p-2, 0x1.9f49b20000000p-3, -0x1.9cc4440000000p-5, 0x1.5e85c60000000p-8},
		{0x1.e4b0caeac3a99p-2, 0x1.ad2351f8ed75fp-1, -0x1.e07d83fd73ca4p-2, 0x1.9f49b2723bf95p-3, -0x1.9cc444b5bbb72p-5, 0x1.5e85c6831af37p-8},
	},
	// erf(x)/x in z = x^2, |x| <= 1
	"erfE": {
		{0x1.20dd740000000p+0, -0x1.81273e0000000p-2, 0x1.ce2cf80000000p-4, -0x1.b7f90e0000000p-6, 0x1.5405b20000000p-8, -0x1.a3f7000000000p-11, 0x1.496a320000000p-14},
		{0x1.20dd750429b6dp+0, -0x1.812746b0379e6p-2, 0x1.ce2f21a042b20p-4, -0x1.b82ce3128499cp-6, 0x1.565bcd0db02e3p-8, -0x1.c02db3d8ed220p-11, 0x1.f9a321a11d932p-14, -0x1.f4d1df39472dbp-17, 0x1.b9def19dc515fp-20, -0x1.5f1d36c102071p-23, 0x1.f7a41223bc140p-27, -0x1.386ac0adca736p-30, 0x1.0579aa90dd79bp-34},
	},
	// erfc(x) in u = x - 2.5, x in [1, 4], absolute error
	"erfA": {
		{0x1.aaaf2e0000000p-12, -0x1.1d7a420000000p-9, 0x1.64fca20000000p-8, -0x1.11bda20000000p-7, 0x1.1a330c0000000p-7, -0x1.8fd8ea0000000p-8, 0x1.72544e0000000p-9, -0x1.2c5f4e0000000p-11, -0x1.33da580000000p-12, 0x1.25de140000000p-12, -0x1.ec869e0000000p-15, -0x1.6557620000000p-16, 0x1.206d0c0000000p-17},
		nil,
	},
	// x e^(x^2) erfc(x) in u = 1/x - 0.7, x in [1, 2.5]
	"erfcG1": {
		{0x1.e81dec0000000p-2, -0x1.5d91360000000p-3, 0x1.9988680000000p-7, 0x1.a4dade0000000p-5, -0x1.f008920000000p-5, 0x1.60aeb00000000p-5, -0x1.22deb20000000p-6, -0x1.5f19ea0000000p-8, 0x1.a4e94c0000000p-6, -0x1.dac07c0000000p-6},
		nil,
	},
	// x e^(x^2) erfc(x) in u = 1/x - 0.25, x in [2.5, 10.6]
	"erfcG2": {
		{0x1.18932c0000000p-1, -0x1.e941340000000p-4, -0x1.57a03e0000000p-3, 0x1.c1943e0000000p-3, -0x1.cc8a680000000p-6, -0x1.1897dc0000000p-2, 0x1.a7286c0000000p-2, -0x1.93a1160000000p-6, -0x1.9208a60000000p-1},
		nil,
	},
	// x e^(x^2) erfc(x) in u = 1/x - 0.75, x in [1, 2] (binary64)
	"erfcH1": {
		nil,
		{0x1.df6a7891d7325p-2, -0x1.5a4720afb6ecep-3, 0x1.3cfedc0bfe68dp-6, 0x1.4a14f6e4b4bc1p-5, -0x1.9d6a514f529e0p-5, 0x1.34bef96fec929p-5, -0x1.28d3f1cd14b5ep-6, 0x1.2607f9a3b601bp-11, 0x1.6cac0aeec1488p-7, -0x1.09e0de1bff9c2p-6, 0x1.02690191092c5p-6, -0x1.7b40e6d8cbd7dp-7, 0x1.70f3c172b58a4p-8, 0x1.0a5f2c172fb07p-13, -0x1.4aa7ea64e72a9p-8, 0x1.54889d1908769p-7, -0x1.594f2894a4f8dp-7},
	},
	// x e^(x^2) erfc(x) in u = 1/x - 0.375, x in [2, 4] (binary64)
	"erfcH2": {
		nil,
		{0x1.0fcced7e1e7c8p-1, -0x1.367279608aefep-3, -0x1.78feec12540f5p-4, 0x1.6b0b80c99487dp-3, -0x1.dc4a70137c505p-4, -0x1.35b947fc3ded8p-5, 0x1.91e7801d6fa5ap-3, -0x1.05d2280a69101p-2, 0x1.16c3df959d5d8p-3, 0x1.5cbe2bd18cfc9p-3, -0x1.1c33224bf6aa1p-1, 0x1.8fe90e41d9938p-1, -0x1.12083039e63b6p-1, -0x1.b5b2ec51d5125p-2, 0x1.0791635bbd4b9p+1, -0x1.d42efb3c66886p+1, 0x1.a2e524c0a4759p+1},
	},
	// x e^(x^2) erfc(x) in u = 1/x - 0.15, x in [4, 27.3] (binary64)
	"erfcH3": {
		nil,
		{0x1.1db8231d13550p-1, -0x1.4507a2cf0621cp-4, -0x1.db1b6879dd5adp-3, 0x1.903ffbd9f615ep-3, 0x1.54e73dd0c0b0dp-3, -0x1.ec35096b88906p-2, 0x1.3828abcd23861p-3, 0x1.fbaaa2e0266b4p-1, -0x1.bec605cd5d21dp+0, -0x1.07c9dea35992fp-1, 0x1.b2731fd354f81p+2, -0x1.39590a3fda64ep+3, -0x1.24b1eaa38807fp+3, 0x1.e2fe3b0667957p+5, -0x1.46a28516326efp+6, -0x1.1e8922de72339p+7, 0x1.3596e9d1f2b6dp+9},
	},
	// lgamma(x)/((x-1)(x-2)) in u = x - 1.875, x in [0.75, 3]
	"lgR": {
		{0x1.be53480000000p-2, -0x1.bf33fc0000000p-4, 0x1.384aca0000000p-5, -0x1.f418040000000p-7, 0x1.aec34a0000000p-8, -0x1.7b7f080000000p-9, 0x1.59372e0000000p-10, -0x1.9bc8d00000000p-11, 0x1.b0d0fe0000000p-12, 0x1.e0f7ce0000000p-17, -0x1.0eaaf40000000p-15, -0x1.f619740000000p-14, 0x1.151c2a0000000p-14},
		nil,
	},
	// lgamma(x)/((x-1)(x-2)) in u = x - 1.125, x in [0.75, 1.5] (binary64)
	"lgR1": {
		nil,
		{0x1.18fa23339f753p-1, -0x1.b0711b5caafd8p-3, 0x1.e9e50dcc1e95fp-4, -0x1.4348c4d3cbb03p-4, 0x1.cd104346c3e5fp-5, -0x1.580598a358fe4p-5, 0x1.084e4682d77bbp-5, -0x1.9e756a083e51bp-6, 0x1.49db42763d896p-6, -0x1.09917d70fedc5p-6, 0x1.af932e0b04f35p-7, -0x1.615e98b77190dp-7, 0x1.2328e674d9584p-7, -0x1.e16515f2830dfp-8, 0x1.905cc4b88066ep-8, -0x1.579ef3288e8e2p-8, 0x1.21dceaa160770p-8, -0x1.817397b239430p-9, 0x1.39f8cec543e34p-9, -0x1.2675f1285adcdp-8, 0x1.01b0a3a6b5e01p-8},
	},
	// lgamma(x)/((x-1)(x-2)) in u = x - 2.25, x in [1.5, 3] (binary64)
	"lgR2": {
		nil,
		{0x1.992dfc9539d9bp-2, -0x1.5fc498795de8fp-4, 0x1.9dff298b20962p-6, -0x1.155963451e3f9p-7, 0x1.8e9b025ba1925p-9, -0x1.2b1a50594d4f6p-10, 0x1.ce0fe40b77b45p-12, -0x1.6c4b7bfa0882cp-13, 0x1.239988715dae5p-14, -0x1.d843ee467d8abp-16, 0x1.81f105721ec5ap-17, -0x1.3dc2efca05177p-18, 0x1.07349722b3b59p-19, -0x1.b551e7c0c2afcp-21, 0x1.6d6bac500d404p-22, -0x1.3b2a63bc22deep-23, 0x1.0acf7aa0f3e0ap-24, -0x1.62e96735c4766p-26, 0x1.22ec4e7c21618p-27, -0x1.12b181d4e4557p-27, 0x1.e0d496a8160b9p-29},
	},
}
