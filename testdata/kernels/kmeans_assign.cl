// Tests: k-means assignment step: each point finds its nearest centroid (loop over k with running argmin), features-major layout, and a centroid-count update with atomics.
kernel void kmeans_assign(global const float *points, global const float *centroids,
                          global int *membership, global uint *counts,
                          int npoints, int nclusters, int nfeatures)
{
    int p = get_global_id(0);
    if (p >= npoints)
        return;
    int best = 0;
    float best_d = INFINITY;
    for (int c = 0; c < nclusters; ++c) {
        float d = 0.0f;
        for (int f = 0; f < nfeatures; ++f) {
            float diff = points[f * npoints + p] - centroids[c * nfeatures + f];
            d = mad(diff, diff, d);
        }
        if (d < best_d) {
            best_d = d;
            best = c;
        }
    }
    membership[p] = best;
    atomic_inc(&counts[best]);
}

/* Swap a points-major [npoints][nfeatures] array into features-major order. */
kernel void kmeans_swap(global const float *in, global float *out, int npoints, int nfeatures)
{
    int i = get_global_id(0);
    if (i >= npoints * nfeatures)
        return;
    int p = i / nfeatures;
    int f = i % nfeatures;
    out[f * npoints + p] = in[i];
}
