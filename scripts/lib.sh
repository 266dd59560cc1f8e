# What the scripts of scripts/ and bench/ share; sourced, never run:
#
#   . "$(dirname "$0")/lib.sh" WORD      (bench/: "$(dirname "$0")/../scripts/lib.sh")
#
# WORD starts every line the script says (its name when none is given):
#   say MESSAGE...      prints "WORD: MESSAGE" to stderr
#   die MESSAGE...      prints "WORD: ERROR: MESSAGE" to stderr and exits 1
#   as_root COMMAND...  runs the command as root: directly when this is root,
#                       else through sudo; dies when neither can
#   apt_install [OPTION...] PACKAGE...
#                       installs Debian's packages quietly, as root, after
#                       refreshing the package lists; no question is asked and
#                       no service restart is offered

say_prefix=${1:-$(basename "$0" .sh)}

say() { printf '%s: %s\n' "$say_prefix" "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    die "need root to run: $* (run as root or install sudo)"; fi
}

apt_install() {
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive NEEDRESTART_SUSPEND=1 apt-get install -y -qq "$@" >/dev/null
}
