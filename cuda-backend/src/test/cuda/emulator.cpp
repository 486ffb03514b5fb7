// Runs arenaplan's CUDA kernels on the CPU, to check their index arithmetic and summation order
// against the simulator without a GPU (KernelEmulationTest). A block's threads are fibers
// (ucontext stacks) of one OS thread that yield to the block's scheduler at __syncthreads(); blocks run
// one after another (launch), so __shared__ arrays (function statics) belong to one block at a time.
//
// Input (stdin), one case per line: NAME gx gy gz bx by SLOTS OUT [LEN HEX]xSLOTS I0..I39 F0..F15
// where NAME is an entry function, optionally followed by "@SHIFT": every slot then starts SHIFT
// bytes past a 16-byte boundary (to run the vectorized kernels' unaligned paths); LEN is a slot's size in bytes and HEX its bytes (two hex digits each, memory order; "-"
// when LEN is 0, a null pointer), every F a double's bits in hex.
// Output: one line per case, the OUT slot's bytes in hex, memory order.
// Arguments: none, or "--shuffle SEED": each round of a block (below) resumes its threads in a
// new pseudo-random order drawn from SEED, not in thread order, so that a kernel whose result
// depends on the order of its threads between barriers (a race on a GPU) gives other bytes.
#undef _FORTIFY_SOURCE   // its longjmp check refuses a jump to another fiber's stack (the switches below)
#include <cinttypes>
#include <cmath>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <ucontext.h>
#include <type_traits>
#include <utility>
#include <vector>

struct Dim { unsigned x = 0, y = 0, z = 0; };
static Dim threadIdx, blockIdx;   // the running fiber's
static Dim blockDim, gridDim;
// A fiber starts on its own stack through setcontext (makecontext); every later switch is a
// _setjmp/_longjmp pair, which saves no signal mask: no system call per switch (swapcontext makes
// two). KernelEmulationTest's 2,142 cases (3 December, with data_dependent.cuh's 1024-thread
// blocks): 3 min 14 s with swapcontext, 4.2 s so, the same output bytes (`emulator < cases.txt`,
// load average 9 on 2 cores).
static jmp_buf block_scheduler;   // launch's loop, which a fiber jumps back to at a barrier or its end
static jmp_buf* running_fiber = nullptr;
static bool running_ended = false;   // set by launch before it resumes a fiber, cleared at a barrier
static void sync_threads() {
    running_ended = false;
    if (!_setjmp(*running_fiber)) _longjmp(block_scheduler, 1);
}

#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __syncthreads() sync_threads()
#define __trap() std::abort()   // an index or divisor the kernel refuses; the cases never do it
static long long clock64() { return 0; }   // slow_copy's wait is a no-op here
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(16) uint4 { unsigned x, y, z, w; };
// The wmma API of <mma.h> that tf32.cuh uses, for one thread: every thread of a warp holds the
// whole tile (the warp's collective loads and mma compute the same values in each thread), and
// only lane 0 stores it. __float_to_tf32 rounds as cvt.rna.tf32.f32 (nearest, ties away from
// zero, 10-bit mantissa); mma_sync adds the exact TF32 products to the accumulator in FP32, k
// ascending (the hardware's order is unspecified, so the tests compare TF32 results within a bound).
namespace nvcuda { namespace wmma {
struct matrix_a { }; struct matrix_b { }; struct accumulator { }; struct row_major { };
namespace precision { struct tf32 { }; }
enum layout_t { mem_row_major };
template <typename Use, int M, int N, int K, typename T, typename Layout = void> struct fragment {
    static constexpr int rows = std::is_same_v<Use, matrix_b> ? K : M;
    static constexpr int cols = std::is_same_v<Use, matrix_a> ? K : N;
    float x[rows * cols];
};
template <typename F> void fill_fragment(F& f, float v) { for (float& e : f.x) e = v; }
template <typename F> void load_matrix_sync(F& f, const float* p, unsigned ldm) {
    for (int r = 0; r < F::rows; r++) for (int c = 0; c < F::cols; c++) f.x[r * F::cols + c] = p[r * ldm + c];
}
template <typename D, typename A, typename B> void mma_sync(D& d, const A& a, const B& b, const D& c) {
    float out[D::rows * D::cols];
    for (int i = 0; i < D::rows; i++)
        for (int j = 0; j < D::cols; j++) {
            float acc = c.x[i * D::cols + j];
            for (int k = 0; k < A::cols; k++) acc = acc + a.x[i * A::cols + k] * b.x[k * B::cols + j];
            out[i * D::cols + j] = acc;
        }
    std::memcpy(d.x, out, sizeof out);
}
inline float __float_to_tf32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    if ((bits & 0x7f800000u) != 0x7f800000u) bits = (bits + 0x1000u) & ~0x1fffu;   // NaN and infinities pass
    std::memcpy(&v, &bits, 4);
    return v;
}
} }
static bool lane0();
namespace nvcuda { namespace wmma {
template <typename F> void store_matrix_sync(float* p, const F& f, unsigned ldm, layout_t) {
    if (!lane0()) return;
    for (int r = 0; r < F::rows; r++) for (int c = 0; c < F::cols; c++) p[r * ldm + c] = f.x[r * F::cols + c];
}
} }
#define __align__(n) __attribute__((aligned(n)))
static double __longlong_as_double(long long v) { double d; std::memcpy(&d, &v, 8); return d; }

#include "kernels.cu"

static bool lane0() { return (threadIdx.y * blockDim.x + threadIdx.x) % 32 == 0; }

// A block's threads are fibers run by one OS thread: launch resumes each unfinished fiber in turn
// until it reaches its next __syncthreads() (which switches back to launch) or its end, and
// repeats these rounds until every fiber has ended; then the next block. Each round brings every
// thread of the block to the same barrier before any passes it, as on a GPU, and the order is
// fixed, so a run is deterministic (a kernel whose result depends on the order of its threads is
// racy on a GPU and can pass here). (Real std::threads meeting at a std::barrier, as before:
// KernelEmulationTest took 86 s user + 167 s sys of CPU, 385 s wall at load average 11-38; most
// of it the barrier's futex hand-offs between hundreds of threads.)
static constexpr size_t FIBER_STACK = 256 * 1024;   // bytes; each below a PROT_NONE guard page
static constexpr size_t GUARD = 4096;
static std::vector<char*> fiber_stacks;   // grown to the largest block, reused by every launch
static const std::function<void()>* fiber_body = nullptr;

static void fiber_main() {   // never returns: its end jumps back to the scheduler
    (*fiber_body)();
    _longjmp(block_scheduler, 1);
}

static unsigned long long shuffle_state = 0;   // 0: threads in order; else the state of the order's generator (--shuffle)

static void launch(Dim grid, Dim block, const std::function<void()>& body) {
    gridDim = grid;
    blockDim = block;
    unsigned threads = block.x * block.y;
    while (fiber_stacks.size() < threads) {
        void* m = mmap(nullptr, FIBER_STACK + GUARD, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED || mprotect(m, GUARD, PROT_NONE) != 0) { std::perror("emulator: fiber stack"); std::exit(2); }
        fiber_stacks.push_back((char*) m + GUARD);
    }
    fiber_body = &body;
    struct Resume { jmp_buf at; };
    std::vector<ucontext_t> fibers(threads);
    std::vector<Resume> resume(threads);
    std::vector<char> ended(threads), started(threads);
    std::vector<unsigned> order(threads);
    for (unsigned bz = 0; bz < grid.z; bz++)
        for (unsigned by = 0; by < grid.y; by++)
            for (unsigned bx = 0; bx < grid.x; bx++) {
                blockIdx = Dim{bx, by, bz};
                for (unsigned t = 0; t < threads; t++) {
                    getcontext(&fibers[t]);
                    fibers[t].uc_stack.ss_sp = fiber_stacks[t];
                    fibers[t].uc_stack.ss_size = FIBER_STACK;
                    fibers[t].uc_link = nullptr;
                    makecontext(&fibers[t], fiber_main, 0);
                    ended[t] = started[t] = 0;
                }
                for (unsigned left = threads; left > 0;) {   // one round: every fiber to its next barrier or its end
                    left = 0;
                    for (unsigned i = 0; i < threads; i++) order[i] = i;
                    for (unsigned i = threads; shuffle_state != 0 && i > 1; i--) {   // Fisher-Yates, a 64-bit LCG (Knuth's MMIX constants)
                        shuffle_state = shuffle_state * 6364136223846793005ULL + 1442695040888963407ULL;
                        std::swap(order[i - 1], order[(shuffle_state >> 33) % i]);
                    }
                    for (unsigned t : order) {
                        if (ended[t]) continue;
                        threadIdx = Dim{t % block.x, t / block.x, 0};
                        running_fiber = &resume[t].at;
                        running_ended = true;
                        if (!_setjmp(block_scheduler)) {
                            if (started[t]) _longjmp(resume[t].at, 1);
                            started[t] = 1;
                            setcontext(&fibers[t]);
                        }
                        ended[t] = running_ended;
                        left += !running_ended;
                    }
                }
            }
}

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--shuffle") shuffle_state = std::stoull(argv[2]) | 1;
    else if (argc != 1) { std::fprintf(stderr, "usage: emulator [--shuffle SEED] < cases\n"); return 2; }
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty()) continue;
        std::istringstream in(line);
        std::string name;
        Dim grid, block;
        int slots, out;
        in >> name >> grid.x >> grid.y >> grid.z >> block.x >> block.y >> slots >> out;
        block.z = 1;
        size_t shift = 0;
        if (size_t at = name.find('@'); at != std::string::npos) {
            shift = std::stoul(name.substr(at + 1));
            name = name.substr(0, at);
        }
        std::vector<std::vector<unsigned char>> data(slots);
        for (int s = 0; s < slots; s++) {
            size_t len;
            std::string hex;
            in >> len >> hex;
            if (len == 0) continue;
            if (hex.size() != 2 * len) { std::fprintf(stderr, "emulator: slot %d of %s: %zu bytes, %zu hex digits\n", s, name.c_str(), len, hex.size()); return 2; }
            data[s].resize(len + shift);
            for (size_t i = 0; i < len; i++) data[s][shift + i] = (unsigned char) std::stoul(hex.substr(2 * i, 2), nullptr, 16);
        }
        Ints ints;
        Floats floats;
        for (int i = 0; i < ARENAPLAN_MAX_INTS; i++) in >> ints.v[i];
        for (int i = 0; i < ARENAPLAN_MAX_FLOATS; i++) {
            uint64_t bits;
            in >> std::hex >> bits >> std::dec;
            std::memcpy(&floats.v[i], &bits, 8);
        }
        if (!in) { std::fprintf(stderr, "emulator: malformed case for %s\n", name.c_str()); return 2; }
        auto p = [&](int s) { return data[s].empty() ? nullptr : (float*) (data[s].data() + shift); };   // new[] storage: 16-byte aligned
        auto u8 = [&](int s) { return (unsigned char*) p(s); };
        std::function<void()> body;
        if (name == "unary") body = [&] { unary(p(0), p(1), ints, floats); };
        else if (name == "binary_broadcast") body = [&] { binary_broadcast(p(0), p(1), p(2), ints, floats); };
        else if (name == "gemm") body = [&] { gemm(p(0), p(1), p(2), p(3), ints, floats); };
        // the typed forms (typed.cuh): the same slots as the f32 entry function
        else if (name == "gemm_f16") body = [&] { gemm_f16(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "gemm_f64") body = [&] { gemm_f64(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "conv2d_f16") body = [&] { conv2d_f16(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "conv2d_igemm_f16") body = [&] { conv2d_igemm_f16(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "conv_nd_f16") body = [&] { conv_nd_f16(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "pool_f16") body = [&] { pool_f16(p(0), p(1), ints, floats); };
        else if (name == "pool_u8") body = [&] { pool_u8(p(0), p(1), ints, floats); };
        else if (name == "pool_i8") body = [&] { pool_i8(p(0), p(1), ints, floats); };
        else if (name == "pool_indices_f16") body = [&] { pool_indices_f16(p(0), (long long*) p(1), ints, floats); };
        else if (name == "pool_indices_u8") body = [&] { pool_indices_u8(p(0), (long long*) p(1), ints, floats); };
        else if (name == "pool_indices_i8") body = [&] { pool_indices_i8(p(0), (long long*) p(1), ints, floats); };
        else if (name == "softmax_f16") body = [&] { softmax_f16(p(0), (const long long*) p(1), p(2), ints, floats); };
        else if (name == "softmax_f64") body = [&] { softmax_f64(p(0), (const long long*) p(1), p(2), ints, floats); };
        else if (name == "normalize_f16") body = [&] { normalize_f16(p(0), p(1), p(2), p(3), p(4), p(5), ints, floats); };
        else if (name == "normalize_f64") body = [&] { normalize_f64(p(0), p(1), p(2), p(3), p(4), p(5), ints, floats); };
        else if (name == "attention_f16") body = [&] { attention_f16(p(0), p(1), p(2), p(3), p(4), p(5), (const long long*) p(6), p(7), p(8), p(9), p(10), ints, floats); };
        else if (name == "softmax") body = [&] { softmax(p(0), (const long long*) p(1), p(2), ints, floats); };
        else if (name == "batchnorm") body = [&] { batchnorm(p(0), p(1), p(2), p(3), p(4), p(5), ints, floats); };
        else if (name == "conv2d_igemm_tf32") body = [&] { conv2d_igemm_tf32(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "gemm_tf32") body = [&] { gemm_tf32(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "conv2d_igemm") body = [&] { conv2d_igemm(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "conv2d") body = [&] { conv2d(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "conv_nd") body = [&] { conv_nd(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "pool") body = [&] { pool(p(0), p(1), ints, floats); };
        else if (name == "pool_indices") body = [&] { pool_indices(p(0), (long long*) p(1), ints, floats); };
        else if (name == "resize") body = [&] { resize(p(0), p(1), ints, floats); };
        else if (name == "resize_f16") body = [&] { resize_f16(p(0), p(1), ints, floats); };
        else if (name == "grid_sample") body = [&] { grid_sample(p(0), p(1), p(2), ints, floats); };
        else if (name == "col2im") body = [&] { col2im(p(0), p(1), ints, floats); };
        else if (name == "affine_grid") body = [&] { affine_grid(p(0), p(1), ints, floats); };
        else if (name == "lrn") body = [&] { lrn(p(0), p(1), ints, floats); };
        else if (name == "transpose") body = [&] { transpose(p(0), p(1), ints, floats); };
        else if (name == "copy") body = [&] { copy(p(0), p(1), ints, floats); };
        else if (name == "concat_slice") body = [&] { concat_slice(p(0), p(1), ints, floats); };
        else if (name == "cast") body = [&] { cast(p(0), p(1), ints, floats); };
        else if (name == "gather") body = [&] { gather(p(0), p(1), (const long long*) p(2), (const long long*) p(3), p(4), ints, floats); };
        else if (name == "where") body = [&] { where(u8(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "compare") body = [&] { compare(p(0), p(1), u8(2), ints, floats); };
        else if (name == "quantize") body = [&] { quantize(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "strided_copy") body = [&] { strided_copy(p(0), p(1), ints, floats); };
        else if (name == "pad") body = [&] { pad(p(0), p(1), p(2), ints, floats); };
        else if (name == "trilu") body = [&] { trilu(p(0), p(1), ints, floats); };
        else if (name == "gather_elements") body = [&] { gather_elements(p(0), p(1), p(2), ints, floats); };
        else if (name == "nonzero") body = [&] { nonzero(p(0), (long long*) p(1), (long long*) p(2), ints, floats); };
        else if (name == "unique") body = [&] { unique(p(0), (long long*) p(1), p(2), (long long*) p(3), (long long*) p(4), (long long*) p(5), ints, floats); };
        else if (name == "non_max_suppression") body = [&] { non_max_suppression((const float*) p(0), (const float*) p(1), (const long long*) p(2), (const float*) p(3), (const float*) p(4), (const long long*) p(5), (long long*) p(6), (long long*) p(7), ints, floats); };
        else if (name == "compress") body = [&] { compress(p(0), u8(1), (long long*) p(2), p(3), ints, floats); };
        else if (name == "zero_tail") body = [&] { zero_tail((const long long*) p(0), p(1), ints, floats); };
        else if (name == "transpose_bounded") body = [&] { transpose_bounded((const long long*) p(0), p(1), p(2), ints, floats); };
        else if (name == "check_extent") body = [&] { check_extent((const long long*) p(0), ints, floats); };
        else if (name == "split_bounded") body = [&] { split_bounded((const long long*) p(0), p(1), p(2), (long long*) p(3), ints, floats); };
        else if (name == "slice_bounded") body = [&] { slice_bounded((const long long*) p(0), p(1), p(2), (long long*) p(3), ints, floats); };
        else if (name == "concat_bounded") body = [&] { concat_bounded((const long long*) p(0), (const long long*) p(1), p(2), p(3), (long long*) p(4), ints, floats); };
        else if (name == "reshape_extent") body = [&] { reshape_extent((const long long*) p(0), (long long*) p(1), ints, floats); };
        else if (name == "scatter_elements") body = [&] { scatter_elements(p(0), p(1), p(2), (const long long*) p(3), p(4), ints, floats); };
        else if (name == "gather_nd") body = [&] { gather_nd(p(0), p(1), (const long long*) p(2), (const long long*) p(3), p(4), ints, floats); };
        else if (name == "scatter_nd") body = [&] { scatter_nd(p(0), p(1), p(2), (const long long*) p(3), p(4), ints, floats); };
        else if (name == "tensor_scatter") body = [&] { tensor_scatter(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "onehot") body = [&] { onehot(p(0), p(1), p(2), ints, floats); };
        else if (name == "reduce") body = [&] { reduce(p(0), (const long long*) p(1), p(2), ints, floats); };
        else if (name == "einsum") body = [&] { einsum(p(0), p(1), p(2), ints, floats); };
        else if (name == "dft") body = [&] { dft(p(0), p(1), p(2), ints, floats); };
        else if (name == "qmatmul") body = [&] { qmatmul(p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), ints, floats); };
        else if (name == "qconv") body = [&] { qconv(p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), (const int*) p(8), p(9), ints, floats); };
        else if (name == "quantize_range") body = [&] { quantize_range(p(0), p(1), u8(2), ints, floats); };
        else if (name == "reverse_sequence") body = [&] { reverse_sequence(p(0), (const long long*) p(1), p(2), ints, floats); };
        else if (name == "tfidf") body = [&] { tfidf(p(0), p(1), ints, floats); };
        else if (name == "tree_ensemble") body = [&] { tree_ensemble(p(0), (const double*) p(1), p(2), (long long*) p(3), ints, floats); };
        else if (name == "cumsum") body = [&] { cumsum(p(0), p(1), ints, floats); };
        else if (name == "topk") body = [&] { topk(p(0), (const long long*) p(1), p(2), (long long*) p(3), ints, floats); };
        else if (name == "normalize") body = [&] { normalize(p(0), p(1), p(2), p(3), p(4), p(5), ints, floats); };
        else if (name == "batchnorm_running") body = [&] { batchnorm_running(p(0), p(1), p(2), p(3), p(4), ints, floats); };
        else if (name == "nll_loss") body = [&] { nll_loss(p(0), p(1), p(2), p(3), p(4), ints, floats); };
        else if (name == "recurrent") body = [&] { recurrent(p(0), p(1), p(2), p(3), (const int*) p(4), p(5), p(6), p(7), p(8), p(9), p(10), ints, floats); };
        else if (name == "rotary") body = [&] { rotary(p(0), p(1), p(2), (const long long*) p(3), p(4), ints, floats); };
        else if (name == "attention") body = [&] { attention(p(0), p(1), p(2), p(3), p(4), p(5), (const long long*) p(6), p(7), p(8), p(9), p(10), ints, floats); };
        else if (name == "causal_conv") body = [&] { causal_conv(p(0), p(1), p(2), p(3), p(4), p(5), ints, floats); };
        else if (name == "linear_attention") body = [&] { linear_attention(p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), ints, floats); };
        else if (name == "roi_align") body = [&] { roi_align((const float*) p(0), (const float*) p(1), (const long long*) p(2), (float*) p(3), ints, floats); };
        else if (name == "deform_conv") body = [&] { deform_conv((const float*) p(0), (const float*) p(1), (const float*) p(2), (const float*) p(3), (const float*) p(4), (float*) p(5), ints, floats); };
        else if (name == "max_unpool") body = [&] { max_unpool((const float*) p(0), (const long long*) p(1), (float*) p(2), ints, floats); };
        else if (name == "det") body = [&] { det((const float*) p(0), (float*) p(1), ints, floats); };
        else if (name == "gelu_grad") body = [&] { gelu_grad(p(0), p(1), p(2), ints, floats); };
        else if (name == "softmax_grad") body = [&] { softmax_grad(p(0), p(1), p(2), ints, floats); };
        else if (name == "layernorm_grad") body = [&] { layernorm_grad(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "conv2d_backward_data") body = [&] { conv2d_backward_data(p(0), p(1), p(2), ints, floats); };
        else if (name == "conv2d_backward_filter") body = [&] { conv2d_backward_filter(p(0), p(1), p(2), ints, floats); };
        else if (name == "optimizer") body = [&] { optimizer(p(0), (const long long*) p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), ints, floats); };
        else if (name == "flex_attention") body = [&] { flex_attention(p(0), p(1), p(2), p(3), ints, floats); };
        else if (name == "slow_copy") body = [&] { slow_copy(p(0), p(1), ints, floats); };
        else { std::fprintf(stderr, "emulator: unknown kernel %s\n", name.c_str()); return 2; }
        launch(grid, block, body);
        for (size_t i = shift; i < data[out].size(); i++) std::printf("%02x", data[out][i]);
        std::printf("\n");
    }
    return 0;
}
