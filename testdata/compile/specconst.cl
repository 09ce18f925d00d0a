// Tests: specialization constants from OpenCL C: llvm-spirv-15 turns
// __spirv_SpecConstant(SpecId, default) calls into OpSpecConstant;
// COUNT_DEFAULT and SCALE_DEFAULT give other defaults.
#ifndef COUNT_DEFAULT
#define COUNT_DEFAULT 4
#endif
#ifndef SCALE_DEFAULT
#define SCALE_DEFAULT 0.5f
#endif

int __attribute__((overloadable)) __spirv_SpecConstant(int id, int def);
float __attribute__((overloadable)) __spirv_SpecConstant(int id, float def);

kernel void scaled_fill(global float *out) {
  int n = __spirv_SpecConstant(10, COUNT_DEFAULT);
  float s = __spirv_SpecConstant(11, SCALE_DEFAULT);
  size_t i = get_global_id(0);
  out[i] = (float)(i % n) * s;
}
