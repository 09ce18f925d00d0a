package isel

import (
	"spv2visa/ir"
)

// imageParam lays out an image or sampler kernel argument; it reports
// false for other arguments.
func (s *sel) imageParam(i int, t *ir.Type, attr ir.ParamAttr) bool {
	if t.Kind != ir.KImage && t.Kind != ir.KSampler {
		return false
	}
	s.fail("kernel argument %d of type %s: images are not supported yet", i, t)
	return true
}

// image selects image reads, samples, writes, queries, literal samplers
// and image block reads and writes.
func (s *sel) image(v *ir.Value) {
	s.fail("images are not supported yet")
}
