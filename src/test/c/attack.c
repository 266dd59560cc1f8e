/*
 * A hostile agent's probe of its witness (HostileAgentIT): tries each way a
 * process of the same user could read, trace or write into PID 1, and prints
 * one line per try to stdout, "<try>: denied" or "<try>: allowed". It changes
 * nothing it reaches: a descriptor it may open is closed again unused.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <unistd.h>

static void report(const char *what, int allowed) {
    printf("%s: %s\n", what, allowed ? "allowed" : "denied");
}

static int opens(const char *path, int flags) {
    int fd = open(path, flags | O_CLOEXEC);
    if (fd < 0) return 0;
    close(fd);
    return 1;
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    report("ptrace-attach", ptrace(PTRACE_ATTACH, 1, 0, 0) == 0);
    report("ptrace-seize", ptrace(PTRACE_SEIZE, 1, 0, 0) == 0);
    report("proc-mem", opens("/proc/1/mem", O_RDONLY));
    char byte;
    struct iovec local = {&byte, 1}, remote = {(void *)0x400000, 1};
    report("process-vm-readv", process_vm_readv(1, &local, 1, &remote, 1, 0) >= 0 || errno == EFAULT);
    report("proc-environ", opens("/proc/1/environ", O_RDONLY));
    DIR *fds = opendir("/proc/1/fd");
    report("proc-fd-list", fds != NULL);
    if (fds) closedir(fds);
    report("proc-fd-open", opens("/proc/1/fd/1", O_WRONLY));
    return 0;
}
