#!/usr/bin/env bash
# Installs the web toolchain the browser app needs, from package registries
# only (crates.io, npm, Debian): nothing downloads prebuilt binaries.
# Idempotent: checks each tool's version and skips what is present.
#
#   wasm32-unknown-unknown   rustup target
#   trunk 0.21.14            cargo install (0.22+ needs a newer rustc)
#   wasm-bindgen-cli         cargo install, the exact version in Cargo.lock
#   wasm-opt (binaryen 132)  npm ci from package-lock.json → node_modules/.bin
#   onnxruntime-web 1.30.0   the same npm ci; its CPU build is copied into the
#                            site for query embedding (app/index.html)
#   @wllama/wllama 3.13.0    the same npm ci; its module and wasm are copied
#                            into the site for the in-page LLM (app/index.html)
#   axe-core 4.14.1          the same npm ci; the end-to-end tests inject it to
#                            check accessibility (never shipped)
#   chromium + chromedriver  apt (screenshots and browser tests)
#
# Callers put node_modules/.bin on PATH (scripts/serve.sh and scripts/test.sh
# do) so Trunk finds wasm-opt 132 rather than Debian's broken 108.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
WASM_OPT_VERSION=132
ORT_WEB_VERSION=1.30.0
WLLAMA_VERSION=3.13.0
AXE_VERSION=4.14.1

say() { printf 'setup: %s\n' "$*"; }

# Version of a tool's first output line, or empty when it is not installed.
version_of() { "$@" 2>/dev/null | head -n1 | grep -oE '[0-9]+(\.[0-9]+)+' | head -n1 || true; }

if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "wasm32-unknown-unknown target present"
else
  say "installing the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(version_of trunk --version)" = "$TRUNK_VERSION" ]; then
  say "trunk $TRUNK_VERSION present"
else
  say "installing trunk $TRUNK_VERSION (about 2 minutes)"
  # Unoptimised: Trunk only runs other tools and copies files, and a fresh
  # CI machine builds it on every run (a release build takes 5 minutes).
  cargo install --locked --debug trunk --version "$TRUNK_VERSION" --no-default-features
fi

# The CLI must equal the wasm-bindgen the app links, or Trunk tries to
# download one. Not --locked: its lockfile pins a webpki-roots version the
# registry no longer serves.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if [ -z "$bindgen_version" ]; then
  echo "setup: error: no wasm-bindgen in Cargo.lock" >&2
  exit 1
fi
if [ "$(version_of wasm-bindgen --version)" = "$bindgen_version" ]; then
  say "wasm-bindgen-cli $bindgen_version present"
else
  say "installing wasm-bindgen-cli $bindgen_version (the version in Cargo.lock)"
  # Lightly optimised: it rewrites the app's wasm on every build, but a
  # full release build of it costs a fresh CI machine minutes.
  CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_LTO=false \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_DEBUG=false \
    cargo install wasm-bindgen-cli --version "$bindgen_version" --force
fi

# Debian's binaryen (108) silently breaks wasm-bindgen's externref table
# export; Trunk.toml pins version_132 so any other wasm-opt is refused.
npm_version() { node -p "require('./node_modules/$1/package.json').version" 2>/dev/null || true; }
if node_modules/.bin/wasm-opt --version 2>/dev/null | grep -q "(version_$WASM_OPT_VERSION)" \
  && [ "$(npm_version onnxruntime-web)" = "$ORT_WEB_VERSION" ] \
  && [ "$(npm_version @wllama/wllama)" = "$WLLAMA_VERSION" ] \
  && [ "$(npm_version axe-core)" = "$AXE_VERSION" ]; then
  say "wasm-opt $WASM_OPT_VERSION, onnxruntime-web $ORT_WEB_VERSION, @wllama/wllama $WLLAMA_VERSION and axe-core $AXE_VERSION present (node_modules)"
else
  say "installing wasm-opt $WASM_OPT_VERSION, onnxruntime-web $ORT_WEB_VERSION, @wllama/wllama $WLLAMA_VERSION and axe-core $AXE_VERSION (npm ci, package-lock.json)"
  npm ci --no-audit --no-fund
fi

if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
  say "chromium and chromedriver present ($(version_of chromium --version))"
else
  say "installing chromium and chromedriver (apt)"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y chromium chromium-driver
fi
