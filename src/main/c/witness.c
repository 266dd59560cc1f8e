/*
 * sluice-witness: the entrypoint wrapper of every dispatch container.
 *
 *   sluice-witness --record DIR [--key FILE] --drain-ms N --tail BYTES -- COMMAND [ARGS...]
 *
 * Runs COMMAND as a child, relays the child's stdout and stderr to its own
 * fd 1 and fd 2 (which the Docker engine captures), and counts exactly what the
 * child wrote to each stream: bytes, SHA-256 and the last BYTES bytes. When the
 * child has ended it waits (at most N ms) until the engine has read everything
 * out of the pipes behind fd 1 and fd 2, writes DIR/stdout.tail,
 * DIR/stderr.tail and, last, DIR/record.json, and exits with the child's status.
 *
 * The record is believed only because the command could not have written it
 * (ADR 0070). FILE holds a key of this container's own; the witness reads it
 * and removes it before the command exists, keeps it only in its memory, and
 * authenticates the record with HMAC-SHA256 under it. The witness makes
 * itself non-dumpable first, so a command of the same user can neither trace
 * it nor read its memory, and it is the container's PID 1, which no process
 * inside may kill or stop (where the runtime keeps that rule).
 *
 * Why: the engine (20.10) closes its end of the output streams about two
 * seconds after the container's process exits; whatever its copy had not taken
 * by then is lost. Keeping the container alive until the pipes are empty
 * removes most of that loss, and the record tells the worker exactly what the
 * agent wrote, so it can tell a complete capture from a cut one and restore a
 * lost end from the tail.
 *
 * Plain C99 with libc only, so it builds static with musl or glibc and runs in
 * any image, including FROM scratch ones.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 5))
#define WITNESS_SHA_NI 1
#include <cpuid.h>
#include <immintrin.h>
#endif

#define EXIT_USAGE 125
#define EXIT_NOEXEC 127
#define CHUNK (64 * 1024)
#define MAX_TAIL (1u << 30)
#define MAX_DRAIN_MS 86400000L
#define DRAIN_STEP_NS 2000000L
#define SIG_LIMIT 65

/* ------------------------------------------------------------------------- */
/* SHA-256 (FIPS 180-4)                                                      */
/* ------------------------------------------------------------------------- */

static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

typedef struct {
    uint32_t h[8];
    uint64_t total;
    unsigned char buf[64];
    size_t fill;
} sha256_ctx;

typedef void (*sha256_blocks_fn)(uint32_t h[8], const unsigned char *p, size_t nblocks);

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define BSIG0(x) (ROR(x, 2) ^ ROR(x, 13) ^ ROR(x, 22))
#define BSIG1(x) (ROR(x, 6) ^ ROR(x, 11) ^ ROR(x, 25))
#define SSIG0(x) (ROR(x, 7) ^ ROR(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ROR(x, 17) ^ ROR(x, 19) ^ ((x) >> 10))
/* One round with the working variables renamed instead of shifted: only d and h change. */
#define ROUND(a, b, c, d, e, f, g, h, i)                                         \
    do {                                                                         \
        uint32_t t1 = h + BSIG1(e) + (g ^ (e & (f ^ g))) + K256[i] + w[(i)&15]; \
        d += t1;                                                                 \
        h = t1 + BSIG0(a) + ((a & b) | (c & (a | b)));                           \
    } while (0)

/* The message schedule is kept as a ring of 16 words, extended eight at a time ahead of the rounds using them. */
static void sha256_blocks_c(uint32_t hs[8], const unsigned char *p, size_t nblocks) {
    while (nblocks--) {
        uint32_t w[16];
        for (int i = 0; i < 16; i++) {
            w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8
                    | (uint32_t)p[4 * i + 3];
        }
        uint32_t a = hs[0], b = hs[1], c = hs[2], d = hs[3], e = hs[4], f = hs[5], g = hs[6], h = hs[7];
        for (int i = 0; i < 64; i += 8) {
            if (i >= 16) {
                for (int j = i; j < i + 8; j++) {
                    w[j & 15] += SSIG1(w[(j - 2) & 15]) + w[(j - 7) & 15] + SSIG0(w[(j - 15) & 15]);
                }
            }
            ROUND(a, b, c, d, e, f, g, h, i);
            ROUND(h, a, b, c, d, e, f, g, i + 1);
            ROUND(g, h, a, b, c, d, e, f, i + 2);
            ROUND(f, g, h, a, b, c, d, e, i + 3);
            ROUND(e, f, g, h, a, b, c, d, i + 4);
            ROUND(d, e, f, g, h, a, b, c, i + 5);
            ROUND(c, d, e, f, g, h, a, b, i + 6);
            ROUND(b, c, d, e, f, g, h, a, i + 7);
        }
        hs[0] += a;
        hs[1] += b;
        hs[2] += c;
        hs[3] += d;
        hs[4] += e;
        hs[5] += f;
        hs[6] += g;
        hs[7] += h;
        p += 64;
    }
}

#ifdef WITNESS_SHA_NI
/*
 * The SHA extensions keep the state as two vectors, ABEF and CDGH, and take
 * two rounds per sha256rnds2; the schedule is four vectors of four words each.
 */
__attribute__((target("sha,sse4.1"))) static void sha256_blocks_ni(uint32_t h[8], const unsigned char *p,
                                                                    size_t nblocks) {
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)(const void *)&h[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)(const void *)&h[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

    while (nblocks--) {
        __m128i abef0 = abef, cdgh0 = cdgh;
        __m128i m[4];
        for (int i = 0; i < 16; i++) {
            __m128i x;
            if (i < 4) {
                x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i)), bswap);
            } else {
                __m128i t = _mm_sha256msg1_epu32(m[i & 3], m[(i + 1) & 3]);
                t = _mm_add_epi32(t, _mm_alignr_epi8(m[(i + 3) & 3], m[(i + 2) & 3], 4));
                x = _mm_sha256msg2_epu32(t, m[(i + 3) & 3]);
            }
            m[i & 3] = x;
            __m128i wk = _mm_add_epi32(x, _mm_loadu_si128((const __m128i *)(const void *)&K256[4 * i]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
        p += 64;
    }

    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)(void *)&h[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)(void *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
}

static int cpu_has_sha_ni(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    /* SSSE3 (pshufb) and SSE4.1 (pblendw) besides SHA itself. */
    if (!(c & (1u << 9)) || !(c & (1u << 19))) return 0;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 29)) != 0;
}
#endif

static sha256_blocks_fn sha256_blocks = sha256_blocks_c;

static void sha256_select(void) {
#ifdef WITNESS_SHA_NI
    if (cpu_has_sha_ni()) sha256_blocks = sha256_blocks_ni;
#endif
}

static void sha256_init(sha256_ctx *c) {
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(c->h, iv, sizeof iv);
    c->total = 0;
    c->fill = 0;
}

static void sha256_update(sha256_ctx *c, const unsigned char *p, size_t n) {
    c->total += n;
    if (c->fill) {
        size_t take = 64 - c->fill < n ? 64 - c->fill : n;
        memcpy(c->buf + c->fill, p, take);
        c->fill += take;
        p += take;
        n -= take;
        if (c->fill < 64) return;
        sha256_blocks(c->h, c->buf, 1);
        c->fill = 0;
    }
    if (n >= 64) {
        sha256_blocks(c->h, p, n / 64);
        p += n & ~(size_t)63;
        n &= 63;
    }
    if (n) {
        memcpy(c->buf, p, n);
        c->fill = n;
    }
}

static void sha256_final(sha256_ctx *c, unsigned char out[32]) {
    uint64_t bits = c->total * 8;
    unsigned char pad[72];
    size_t padlen = (c->fill < 56 ? 56 : 120) - c->fill;
    memset(pad, 0, sizeof pad);
    pad[0] = 0x80;
    for (int i = 0; i < 8; i++) pad[padlen + i] = (unsigned char)(bits >> (56 - 8 * i));
    uint64_t total = c->total;
    sha256_update(c, pad, padlen + 8);
    c->total = total;
    for (int i = 0; i < 32; i++) out[i] = (unsigned char)(c->h[i / 4] >> (24 - 8 * (i % 4)));
}

static void hex32(const unsigned char in[32], char out[65]) {
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[in[i] >> 4];
        out[2 * i + 1] = hex[in[i] & 15];
    }
    out[64] = '\0';
}

static void sha256_hex(sha256_ctx *c, char out[65]) {
    unsigned char digest[32];
    sha256_final(c, digest);
    hex32(digest, out);
}

/* ------------------------------------------------------------------------- */
/* The key and HMAC-SHA256 (RFC 2104)                                        */
/* ------------------------------------------------------------------------- */

#define KEY_BYTES 32

static unsigned char key[KEY_BYTES];

/* Clears memory the compiler may not drop as dead. */
static void wipe(void *p, size_t n) {
    volatile unsigned char *v = p;
    while (n--) *v++ = 0;
}

static void hmac_sha256_hex(const unsigned char *msg, size_t n, char out[65]) {
    unsigned char pad[64], inner[32];
    sha256_ctx c;
    memset(pad, 0x36, sizeof pad);
    for (int i = 0; i < KEY_BYTES; i++) pad[i] ^= key[i];
    sha256_init(&c);
    sha256_update(&c, pad, sizeof pad);
    sha256_update(&c, msg, n);
    sha256_final(&c, inner);
    memset(pad, 0x5c, sizeof pad);
    for (int i = 0; i < KEY_BYTES; i++) pad[i] ^= key[i];
    sha256_init(&c);
    sha256_update(&c, pad, sizeof pad);
    sha256_update(&c, inner, sizeof inner);
    sha256_hex(&c, out);
    wipe(pad, sizeof pad);
}

/*
 * Reads the key and removes its file, before any process of the command
 * exists. A key that cannot be removed would be the command's to read: then
 * nothing runs at all.
 */
static void take_key(const char *path) {
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "sluice-witness: its key %s cannot be opened: %s\n", path, strerror(errno));
        exit(EXIT_USAGE);
    }
    size_t got = 0;
    while (got < KEY_BYTES) {
        ssize_t r = read(fd, key + got, KEY_BYTES - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    if (unlink(path) != 0 || got < KEY_BYTES) {
        wipe(key, sizeof key);
        fprintf(stderr, "sluice-witness: its key %s cannot be %s\n", path, got < KEY_BYTES ? "read whole" : "removed");
        exit(EXIT_USAGE);
    }
}

/* ------------------------------------------------------------------------- */
/* Streams                                                                   */
/* ------------------------------------------------------------------------- */

typedef struct {
    const char *name; /* "stdout" / "stderr": record key and tail file stem */
    int in;           /* read end of the child's pipe, -1 once done */
    int out;          /* 1 or 2 */
    int relay_errno;  /* first write error on out; 0 while relaying */
    uint64_t bytes;
    sha256_ctx sha;
    unsigned char *tail; /* ring of tail_cap bytes */
    size_t tail_pos;     /* next write position in the ring */
} stream;

static size_t tail_cap;
static unsigned char chunk[CHUNK];

static void tail_add(stream *s, const unsigned char *p, size_t n) {
    if (tail_cap == 0) return;
    if (n >= tail_cap) {
        memcpy(s->tail, p + n - tail_cap, tail_cap);
        s->tail_pos = 0;
        return;
    }
    size_t first = tail_cap - s->tail_pos < n ? tail_cap - s->tail_pos : n;
    memcpy(s->tail + s->tail_pos, p, first);
    memcpy(s->tail, p + first, n - first);
    s->tail_pos = (s->tail_pos + n) % tail_cap;
}

/* Writes all of p to fd; an fd the witness was given non-blocking is waited for. */
static int write_all(int fd, const unsigned char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
        } else if (w < 0 && errno == EINTR) {
            continue;
        } else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pf = {.fd = fd, .events = POLLOUT};
            if (poll(&pf, 1, -1) < 0 && errno != EINTR) return errno;
        } else {
            return w < 0 ? errno : EIO;
        }
    }
    return 0;
}

/* Counts, hashes and keeps what the child wrote, then relays it unless the relay already failed. */
static void take(stream *s, const unsigned char *p, size_t n) {
    s->bytes += n;
    sha256_update(&s->sha, p, n);
    tail_add(s, p, n);
    if (!s->relay_errno) s->relay_errno = write_all(s->out, p, n);
}

static void stream_close(stream *s) {
    if (s->in >= 0) close(s->in);
    s->in = -1;
}

/* One read; returns 1 while the stream stays open. */
static int pump_once(stream *s) {
    ssize_t r = read(s->in, chunk, sizeof chunk);
    if (r > 0) {
        take(s, chunk, (size_t)r);
        return 1;
    }
    if (r < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return 1;
    stream_close(s);
    return 0;
}

/*
 * After the child has exited: take what is in the pipe at this moment and stop.
 * Processes the child left behind may hold the write end open for ever; their
 * later output is not the child's and must not keep the container alive.
 */
static void pump_final(stream *s) {
    if (s->in < 0) return;
    int avail = 0;
    size_t left = ioctl(s->in, FIONREAD, &avail) == 0 && avail > 0 ? (size_t)avail : 0;
    while (left > 0) {
        ssize_t r = read(s->in, chunk, left < sizeof chunk ? left : sizeof chunk);
        if (r > 0) {
            take(s, chunk, (size_t)r);
            left -= (size_t)r;
        } else if (r < 0 && errno == EINTR) {
            continue;
        } else {
            break;
        }
    }
    stream_close(s);
}

/* ------------------------------------------------------------------------- */
/* Signals and the child                                                     */
/* ------------------------------------------------------------------------- */

static const int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT, SIGALRM};
#define NFORWARDED ((int)(sizeof forwarded / sizeof forwarded[0]))

static volatile pid_t child_pid;
static volatile sig_atomic_t got_chld;
static int chld_pipe[2] = {-1, -1};

/* What the witness was started with, so the command starts with the same. */
static struct sigaction orig_action[SIG_LIMIT];
static unsigned char orig_saved[SIG_LIMIT];
static sigset_t orig_mask;

static void on_forward(int sig) {
    int saved = errno;
    pid_t pid = child_pid;
    if (pid > 0) kill(pid, sig);
    errno = saved;
}

static void on_chld(int sig) {
    (void)sig;
    int saved = errno;
    got_chld = 1;
    if (chld_pipe[1] >= 0) {
        ssize_t ignored = write(chld_pipe[1], "c", 1);
        (void)ignored;
    }
    errno = saved;
}

static int set_action(int sig, void (*handler)(int)) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigfillset(&sa.sa_mask);
    /* Blocking writes to fd 1/2 resume after a handler; poll() still returns EINTR. */
    sa.sa_flags = SA_RESTART | (sig == SIGCHLD ? SA_NOCLDSTOP : 0);
    if (sigaction(sig, &sa, &orig_action[sig]) != 0) return -1;
    orig_saved[sig] = 1;
    return 0;
}

/* Moves fd to 3 or above, close-on-exec, so it cannot shadow a standard stream the witness was started without. */
static int high_fd(int fd) {
    if (fd < 0 || fd > 2) return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    return moved;
}

static int make_pipe(int p[2]) {
    if (pipe(p) != 0) return -1;
    p[0] = high_fd(p[0]);
    p[1] = high_fd(p[1]);
    if (p[0] < 0 || p[1] < 0) return -1;
    if (fcntl(p[0], F_SETFD, FD_CLOEXEC) != 0 || fcntl(p[1], F_SETFD, FD_CLOEXEC) != 0) return -1;
    return 0;
}

static int set_nonblock(int fd) {
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* In the forked child: give the command the signal state the witness got, its stdin, and the pipes as fd 1 and 2. */
static void exec_child(char **argv, int out_w, int err_w, int report_w) {
    wipe(key, sizeof key);
    for (int sig = 1; sig < SIG_LIMIT; sig++) {
        if (orig_saved[sig]) sigaction(sig, &orig_action[sig], NULL);
    }
    sigprocmask(SIG_SETMASK, &orig_mask, NULL);
    if (dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0) {
        int e = errno;
        ssize_t ignored = write(report_w, &e, sizeof e);
        (void)ignored;
        _exit(EXIT_NOEXEC);
    }
    execvp(argv[0], argv);
    int e = errno;
    ssize_t ignored = write(report_w, &e, sizeof e);
    (void)ignored;
    _exit(EXIT_NOEXEC);
}

/* ------------------------------------------------------------------------- */
/* Time                                                                      */
/* ------------------------------------------------------------------------- */

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ns(long ns) {
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL); /* a signal cutting it short only means an earlier look */
}

/* ------------------------------------------------------------------------- */
/* Drain                                                                     */
/* ------------------------------------------------------------------------- */

typedef struct {
    const char *state;
    long long waited_ms;
    long long left;
} drain_result;

/*
 * FIONREAD on either end of a pipe or FIFO counts the bytes no reader has taken
 * yet. Only FIFOs are looked at: on a tty it counts input, on a socket the
 * receive queue, on a file the rest of the file; none says what the engine has
 * read. A stream whose relay failed has no reader to wait for.
 */
static drain_result drain(stream *streams, long drain_ms) {
    int fds[2];
    struct stat first;
    int nfds = 0, unknown = 0;
    for (int i = 0; i < 2; i++) {
        int fd = streams[i].out;
        struct stat st;
        int n;
        if (streams[i].relay_errno || fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode) || ioctl(fd, FIONREAD, &n) != 0) {
            unknown = 1;
            continue;
        }
        /* fd 1 and fd 2 on one pipe: count it once. */
        if (nfds == 1 && st.st_dev == first.st_dev && st.st_ino == first.st_ino) continue;
        if (nfds == 0) first = st;
        fds[nfds++] = fd;
    }
    drain_result res = {unknown ? "unknown" : "drained", 0, 0};
    if (nfds == 0) return res;
    long long start = now_ms();
    for (;;) {
        long long left = 0;
        for (int i = 0; i < nfds; i++) {
            int n = 0;
            if (ioctl(fds[i], FIONREAD, &n) == 0 && n > 0) left += n;
        }
        long long waited = now_ms() - start;
        if (left == 0) {
            res.waited_ms = waited;
            return res;
        }
        if (waited >= drain_ms) {
            res.state = "timeout";
            res.waited_ms = waited;
            res.left = left;
            return res;
        }
        sleep_ns(DRAIN_STEP_NS);
    }
}

/* ------------------------------------------------------------------------- */
/* Record                                                                    */
/* ------------------------------------------------------------------------- */

typedef struct {
    char *p;
    size_t len, cap;
    int overflow;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_add(sbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= b->cap - b->len) {
        b->overflow = 1;
        b->len = b->cap - 1;
    } else {
        b->len += (size_t)n;
    }
}

/* Writes data to dir/name through a fresh temporary name, so the name only ever holds a whole file. */
static int write_file(int dir, const char *name, const unsigned char *a, size_t alen, const unsigned char *b,
                      size_t blen) {
    char tmp[64];
    snprintf(tmp, sizeof tmp, ".%s.tmp", name);
    if (unlinkat(dir, tmp, 0) != 0 && errno != ENOENT) return -1;
    int fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    int ok = fchmod(fd, 0644) == 0 && write_all(fd, a, alen) == 0 && write_all(fd, b, blen) == 0;
    ok = close(fd) == 0 && ok;
    if (ok && renameat(dir, tmp, dir, name) == 0) return 0;
    unlinkat(dir, tmp, 0);
    return -1;
}

/*
 * Opened before the command runs and held until the end, so a command that
 * moves or replaces the directory's name cannot send the record elsewhere.
 */
static int open_record_dir(const char *path) {
    if (mkdir(path, 0700) != 0 && errno != EEXIST) return -1;
    return open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* A stream's kept end in stream order: the oldest byte sits at tail_pos once the ring has wrapped. */
typedef struct {
    const unsigned char *a, *c;
    size_t alen, clen;
} tail_view;

static tail_view tail_of(const stream *s) {
    size_t kept = s->bytes < tail_cap ? (size_t)s->bytes : tail_cap;
    tail_view v = {s->tail, NULL, kept, 0};
    if (s->bytes > tail_cap && tail_cap > 0) {
        v.a = s->tail + s->tail_pos;
        v.alen = tail_cap - s->tail_pos;
        v.c = s->tail;
        v.clen = s->tail_pos;
    }
    return v;
}

/*
 * The record holds numbers, digests and words of the witness's own only: no
 * text of the command's (an exec or relay failure is its errno) can reach the
 * worker through it. Its last member authenticates all before it.
 */
static void write_record(int dir, int keyed, stream *streams, int exec_errno, int status,
                         const drain_result *dr) {
    if (dir < 0) return;
    /* A record left from an earlier run must not vouch for the new tails. */
    if (unlinkat(dir, "record.json", 0) != 0 && errno != ENOENT) return;

    char json[2048];
    sbuf b = {json, 0, sizeof json, 0};
    sb_add(&b, "{\"v\":2");
    for (int i = 0; i < 2; i++) {
        stream *s = &streams[i];
        tail_view t = tail_of(s);
        char file[32];
        snprintf(file, sizeof file, "%s.tail", s->name);
        if (write_file(dir, file, t.a, t.alen, t.c, t.clen) != 0) return;
        char hex[65], tail_hex[65];
        sha256_hex(&s->sha, hex);
        sha256_ctx tc;
        sha256_init(&tc);
        sha256_update(&tc, t.a, t.alen);
        if (t.clen) sha256_update(&tc, t.c, t.clen);
        sha256_hex(&tc, tail_hex);
        sb_add(&b, ",\"%s\":{\"bytes\":%llu,\"sha256\":\"%s\",\"tailBytes\":%llu,\"tailSha256\":\"%s\",\"relayErrno\":%d}",
               s->name, (unsigned long long)s->bytes, hex, (unsigned long long)(t.alen + t.clen), tail_hex,
               s->relay_errno);
    }
    sb_add(&b, ",\"exec\":%d", exec_errno);
    if (WIFSIGNALED(status)) sb_add(&b, ",\"exit\":{\"code\":null,\"signal\":%d}", WTERMSIG(status));
    else sb_add(&b, ",\"exit\":{\"code\":%d,\"signal\":null}", WEXITSTATUS(status));
    sb_add(&b, ",\"drain\":{\"state\":\"%s\",\"waitedMs\":%lld,\"left\":%lld}", dr->state, dr->waited_ms,
           dr->left);
    if (keyed) {
        char mac[65];
        hmac_sha256_hex((const unsigned char *)json, b.len, mac);
        sb_add(&b, ",\"mac\":\"%s\"", mac);
    }
    sb_add(&b, "}\n");
    if (!b.overflow) write_file(dir, "record.json", (const unsigned char *)json, b.len, NULL, 0);
}

/* ------------------------------------------------------------------------- */
/* Main                                                                      */
/* ------------------------------------------------------------------------- */

static void usage(const char *why) {
    fprintf(stderr,
            "sluice-witness: usage: sluice-witness --record DIR [--key FILE] --drain-ms N --tail BYTES -- COMMAND"
            " [ARGS...]"
            " (%s)\n",
            why);
    exit(EXIT_USAGE);
}

static void fail(const char *what) {
    fprintf(stderr, "sluice-witness: %s: %s\n", what, strerror(errno));
    exit(EXIT_USAGE);
}

static long parse_num(const char *s, long max, const char *opt) {
    if (!s || !*s) usage(opt);
    long v = 0;
    for (const char *c = s; *c; c++) {
        if (*c < '0' || *c > '9' || v > (max - (*c - '0')) / 10) usage(opt);
        v = v * 10 + (*c - '0');
    }
    return v;
}

/* Reaps the child, and as PID 1 every other process that ends up with the witness. Returns 1 once the child has ended. */
static int reap(int *status, int init) {
    sigset_t fwd, old;
    sigemptyset(&fwd);
    for (int i = 0; i < NFORWARDED; i++) sigaddset(&fwd, forwarded[i]);
    /* Once reaped the pid may be reused; no forward may race that. */
    sigprocmask(SIG_BLOCK, &fwd, &old);
    int done = 0;
    for (;;) {
        int st;
        pid_t pid = waitpid(init ? -1 : child_pid, &st, WNOHANG);
        if (pid < 0 && errno == EINTR) continue;
        if (pid <= 0) break;
        if (pid == child_pid) {
            *status = st;
            child_pid = -1;
            done = 1;
            if (!init) break;
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return done;
}

int main(int argc, char **argv) {
    /* Before anything is read: no process of the same user may trace this one or read its memory. */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    const char *record = NULL, *key_file = NULL;
    long drain_ms = -1, tail = -1;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) break;
        if (i + 1 >= argc) usage("missing option value");
        if (strcmp(argv[i], "--record") == 0 && !record) record = argv[++i];
        else if (strcmp(argv[i], "--key") == 0 && !key_file) key_file = argv[++i];
        else if (strcmp(argv[i], "--drain-ms") == 0 && drain_ms < 0) drain_ms = parse_num(argv[++i], MAX_DRAIN_MS, "--drain-ms");
        else if (strcmp(argv[i], "--tail") == 0 && tail < 0) tail = parse_num(argv[++i], MAX_TAIL, "--tail");
        else usage("unknown or repeated option");
    }
    if (!record || !*record || drain_ms < 0 || tail < 0) usage("--record, --drain-ms and --tail are required");
    if (i >= argc || i + 1 >= argc) usage("no command after --");
    char **cmd = argv + i + 1;
    tail_cap = (size_t)tail;
    int init = getpid() == 1;
    /* A container created without a key (by an earlier worker) gets a record that vouches for nothing. */
    int keyed = key_file != NULL;
    if (keyed) take_key(key_file);
    int record_dir = open_record_dir(record);

    sha256_select();
    stream streams[2] = {{.name = "stdout", .out = 1}, {.name = "stderr", .out = 2}};
    for (int s = 0; s < 2; s++) {
        sha256_init(&streams[s].sha);
        if (tail_cap && !(streams[s].tail = malloc(tail_cap))) fail("tail buffer");
    }

    int out_p[2], err_p[2], report_p[2];
    if (make_pipe(out_p) || make_pipe(err_p) || make_pipe(report_p) || make_pipe(chld_pipe)) fail("pipe");
    if (set_nonblock(chld_pipe[0]) || set_nonblock(chld_pipe[1])) fail("pipe");

    /* Signals are held from here until the child's pid is known, so none is lost or sent to pid 0. */
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &orig_mask);
    for (int s = 0; s < NFORWARDED; s++) {
        if (set_action(forwarded[s], on_forward) != 0) fail("sigaction");
    }
    if (set_action(SIGCHLD, on_chld) != 0) fail("sigaction");
    /* A failed relay must be an error code, not the witness's death. */
    if (set_action(SIGPIPE, SIG_IGN) != 0) fail("sigaction");

    pid_t pid = fork();
    if (pid < 0) fail("fork");
    if (pid == 0) exec_child(cmd, out_p[1], err_p[1], report_p[1]);
    child_pid = pid;
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    close(out_p[1]);
    close(err_p[1]);
    close(report_p[1]);

    /* The report pipe closes on a successful exec; an errno arrives when it failed. */
    int exec_errno = 0;
    size_t got = 0;
    while (got < sizeof exec_errno) {
        ssize_t r = read(report_p[0], (char *)&exec_errno + got, sizeof exec_errno - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(report_p[0]);
    if (got < sizeof exec_errno) exec_errno = 0;

    streams[0].in = out_p[0];
    streams[1].in = err_p[0];
    int status = 0;
    if (exec_errno) {
        /* Nothing of the command ran; whatever holds the pipes is not its output. */
        stream_close(&streams[0]);
        stream_close(&streams[1]);
        while (!reap(&status, init)) {
            struct pollfd pf = {.fd = chld_pipe[0], .events = POLLIN};
            poll(&pf, 1, 100);
        }
    } else {
        if (set_nonblock(streams[0].in) || set_nonblock(streams[1].in)) fail("pipe");
        int done = 0;
        while (!done) {
            struct pollfd pf[3];
            stream *who[3];
            int n = 0;
            for (int s = 0; s < 2; s++) {
                if (streams[s].in < 0) continue;
                pf[n].fd = streams[s].in;
                pf[n].events = POLLIN;
                pf[n].revents = 0;
                who[n++] = &streams[s];
            }
            pf[n].fd = chld_pipe[0];
            pf[n].events = POLLIN;
            pf[n].revents = 0;
            who[n] = NULL;
            /* The timeout only guards against a lost wake-up; SIGCHLD wakes the poll through chld_pipe. */
            int r = poll(pf, (nfds_t)n + 1, 1000);
            if (r > 0) {
                for (int k = 0; k < n; k++) {
                    if (pf[k].revents) pump_once(who[k]);
                }
                if (pf[n].revents) {
                    char sink[64];
                    while (read(chld_pipe[0], sink, sizeof sink) > 0) {
                    }
                }
            }
            if (got_chld || r <= 0) {
                got_chld = 0;
                done = reap(&status, init);
            }
        }
        pump_final(&streams[0]);
        pump_final(&streams[1]);
    }

    drain_result dr = drain(streams, drain_ms);
    write_record(record_dir, keyed, streams, exec_errno, status, &dr);
    wipe(key, sizeof key);
    free(streams[0].tail);
    free(streams[1].tail);

    if (exec_errno) return EXIT_NOEXEC;
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
