#!/usr/bin/env bash
# Installs every Debian 12 package that RelayHUD's build, tests and app need;
# with --fuzz, also what fuzz/run.sh needs (clang 14 and libFuzzer).
# Idempotent: packages that dpkg already reports as installed are skipped, and
# apt is not touched at all when nothing is missing.
set -euo pipefail

fuzz=0
case "${1:-}" in
"") ;;
--fuzz) fuzz=1 ;;
*) echo "usage: install-deps.sh [--fuzz]" >&2; exit 2 ;;
esac

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git
  # Qt 6 (Widgets, Charts, Test, SVG icons, platform plugins)
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev qt6-qpa-plugins libgl-dev
  qtkeychain-qt6-dev
  # core libraries
  nlohmann-json3-dev libcurl4-openssl-dev libsqlite3-dev zlib1g-dev
  libpugixml-dev libre2-dev libyaml-dev libtomlplusplus-dev libarchive-dev
  libcpp-httplib-dev libssl-dev
  # the upgrade review reads a PyTorch checkout's revisions (never a shell git)
  libgit2-dev
  # the team server's client library (libpq); the app never needs a server
  libpq-dev
  # tests, benchmarks (yaml-cpp: the config bench's reference), headless GUI checks
  libgtest-dev libgmock-dev libbenchmark-dev libyaml-cpp-dev xvfb xauth fonts-dejavu-core
  # a private session bus for the desktop-notification smoke test (dbus-run-session)
  dbus-daemon
  # a throwaway PostgreSQL the team-server tests start (initdb/pg_ctl), tests only
  postgresql-15
  # the clock check: the tests run again at awkward instants under libfaketime
  faketime
  # CI checks and packaging: formatting, .desktop/AppStream validation, CPack's
  # .deb generator (dpkg-shlibdeps from dpkg-dev; `file` finds the ELF binaries)
  clang-format desktop-file-utils appstream dpkg-dev file
  # the house's numbers (tools/house-numbers): functions' extents and members
  python3 universal-ctags
)
# Fuzzing (fuzz/run.sh, by hand or on a schedule; CI builds and runs the
# targets' replays with the house compiler instead): clang 14 with libFuzzer
# and the sanitizers' runtimes, llvm-symbolizer for readable findings, zip for
# the archive seeds.
[ $fuzz -eq 0 ] || packages+=(clang-14 libclang-rt-14-dev llvm-14 zip)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
