#!/usr/bin/env bash
# Builds the JVM image of the worker (Dockerfile.jvm) on a machine that can
# reach Debian's package archive but no image registry.
#
# The image's base is any image with a Java 17+ runtime; Dockerfile.jvm names a
# public one. Without a registry this script makes one instead: Debian's
# openjdk-17-jre-headless unpacked by debootstrap into a minimal Debian root,
# trimmed of what a runtime never reads (package lists and caches, manuals,
# translations), and imported as an image. It is made once and kept under its
# tag, so later builds only rebuild the worker's own layers.
#
# Usage: scripts/jvm-image.sh [--no-package] [--base-only]
#   --no-package  use target/sluice-runner.jar as it is (the integration test's build
#                 has just packaged it); otherwise the worker is packaged first
#   --base-only   make the base image (when missing) and stop
# Environment:
#   SLUICE_IMAGE           tag of the image built (sluice:jvm)
#   SLUICE_BASE_IMAGE      tag of the base (sluice-base:bookworm-jre17); an
#                          existing image of that tag is used as it is
#   SLUICE_DEBIAN_MIRROR   where debootstrap fetches packages (http://deb.debian.org/debian)
set -euo pipefail
. "$(dirname "$0")/lib.sh" jvm-image
cd "$(dirname "$0")/.."

image=${SLUICE_IMAGE:-sluice:jvm}
base=${SLUICE_BASE_IMAGE:-sluice-base:bookworm-jre17}
mirror=${SLUICE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
package=yes
base_only=no
for arg in "$@"; do
  case "$arg" in
    --no-package) package=no ;;
    --base-only) base_only=yes ;;
    *) printf 'usage: %s [--no-package] [--base-only]\n' "$0" >&2; exit 2 ;;
  esac
done

have_image() { docker image inspect "$1" >/dev/null 2>&1; }

# debootstrap leaves root-owned files behind: they go as root, whatever happens.
work=""
log=""
cleanup() {
  [ -z "$work" ] || as_root rm -rf "$work"
  [ -z "$log" ] || rm -f "$log"
}
trap cleanup EXIT

install_debootstrap() {
  command -v debootstrap >/dev/null 2>&1 && return 0
  command -v apt-get >/dev/null 2>&1 || die "debootstrap is missing and apt-get is not available to install it"
  say "installing debootstrap"
  apt_install debootstrap
  command -v debootstrap >/dev/null 2>&1 || die "debootstrap could not be installed"
}

# What a Java runtime never reads: apt's lists and downloaded packages,
# manuals, info pages, translations and documentation (the copyright files stay).
trim_root() {
  local root=$1
  as_root rm -rf "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/* "$root"/var/log/* \
    "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/* "$root"/usr/share/lintian
  as_root find "$root"/usr/share/doc -mindepth 1 ! -type d ! -name copyright -delete
  as_root find "$root"/usr/share/doc -mindepth 1 -type d -empty -delete
}

make_base() {
  install_debootstrap
  work=$(mktemp -d)
  say "making $base from Debian bookworm's openjdk-17-jre-headless ($mirror)"
  as_root debootstrap --variant=minbase --include=openjdk-17-jre-headless bookworm "$work/root" "$mirror" \
    >"$work/debootstrap.log" 2>&1 || { tail -n 20 "$work/debootstrap.log" >&2; die "debootstrap failed"; }
  trim_root "$work/root"
  as_root tar -C "$work/root" -c . | docker import -c 'ENV LANG=C.UTF-8' - "$base" >/dev/null \
    || die "could not import $base"
  docker run --rm "$base" java -version >/dev/null 2>&1 || die "$base has no working java"
  say "base $base ready"
}

scripts/docker-engine.sh --no-image
# One base at a time: two builds starting together would both bootstrap it.
exec 9>"${TMPDIR:-/tmp}/sluice-jvm-base.lock"
flock 9
have_image "$base" || make_base
flock -u 9
[ "$base_only" = yes ] && exit 0

if [ "$package" = yes ]; then
  ./mvnw -B -q -ntp package -DskipTests
fi
[ -f target/sluice-runner.jar ] || die "target/sluice-runner.jar is missing: package the worker first"

previous=$(docker image inspect -f '{{.Id}}' "$image" 2>/dev/null || true)
say "building $image on $base"
log=$(mktemp)
docker build -f Dockerfile.jvm --build-arg BASE_IMAGE="$base" -t "$image" . >"$log" 2>&1 \
  || { tail -n 40 "$log" >&2; die "could not build $image"; }
# The image this build replaced is left without a name; remove it unless a container still uses it.
current=$(docker image inspect -f '{{.Id}}' "$image")
if [ -n "$previous" ] && [ "$previous" != "$current" ]; then
  docker image rm "$previous" >/dev/null 2>&1 || true
fi
say "image $image ready ($(docker image inspect -f '{{.Size}}' "$image" | awk '{ printf "%.0f MB", $1 / 1e6 }'))"
