#!/usr/bin/env bash
# Buckler's installer. See docs/install.md.
#
#   setup.sh install   [--from TARBALL] [--harness NAME]... [--no-hooks] [--online]
#   setup.sh update    [--from TARBALL] [--harness NAME]... [--no-hooks] [--online] [--with-packs]
#   setup.sh update    --rollback
#   setup.sh uninstall [--purge-config] [--force]
#   setup.sh paths     [--json]
#   setup.sh install --system | uninstall --system | paths --system   (as root: the locked-down install)
#
# No network access unless asked for (--online, --with-packs: the last re-fetches
# each installed signed pack bundle from its recorded source, docs/pack-bundles.md).
# Bash 3.2 compatible (macOS): no associative arrays, no mapfile, no ${x,,}.
set -euo pipefail
# npm must not phone home (update checks, funding, audit) unless we ask it to fetch something.
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# ------------------------------------------------------------------------------------------
# Paths. MIRRORS src/paths.ts `resolvePaths`, `harnessHomeDir`, `harnessConfigFile` (user
# scope), `homeFromEnv`, `isAbsoluteFor`, `joinFor`. Change both together, and docs/paths.md;
# src/paths.parity.test.ts compares them over a matrix of environments.
# ------------------------------------------------------------------------------------------

# The functions assign to the variable named by their first argument (printf -v) instead of
# printing: no subshell per call, so resolving every path costs no fork.

# Sets BK_PLATFORM to Node's process.platform for this machine. BUCKLER_PLATFORM overrides it
# for setup.sh only (the parity test computes Windows paths on Linux); the CLI ignores it.
bk_platform() {
  local forced=${BUCKLER_PLATFORM:-}
  if [[ -n $forced ]]; then
    case $forced in
      win32 | linux | darwin | freebsd | openbsd | sunos | aix) BK_PLATFORM=$forced; return 0 ;;
      *) bk_die "BUCKLER_PLATFORM='$forced' is not a Node platform name (win32, linux, darwin, …)" ;;
    esac
  fi
  case $(uname -s) in
    Linux) BK_PLATFORM=linux ;;
    Darwin) BK_PLATFORM=darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT) BK_PLATFORM=win32 ;;
    FreeBSD) BK_PLATFORM=freebsd ;;
    OpenBSD) BK_PLATFORM=openbsd ;;
    SunOS) BK_PLATFORM=sunos ;;
    AIX) BK_PLATFORM=aix ;;
    *) BK_PLATFORM=$(uname -s | tr '[:upper:]' '[:lower:]') ;;
  esac
}

# isAbsoluteFor(platform, path)
bk_is_absolute() {
  local re='^([A-Za-z]:)?[\/]'
  if [[ $BK_PLATFORM == win32 ]]; then
    [[ $1 =~ $re ]]
  else
    [[ $1 == /* ]]
  fi
}

# bk_join OUT BASE PART...: joinFor(platform, base, ...parts) — trailing separators of base
# dropped, one separator per part, nothing normalised.
bk_join() {
  local _bk_out=$1 _bk_base=$2 _bk_sep=/ _bk_part _bk_r
  shift 2
  if [[ $BK_PLATFORM == win32 ]]; then
    _bk_sep='\'
    while [[ $_bk_base == *[\\/] ]]; do _bk_base=${_bk_base%?}; done
  else
    while [[ $_bk_base == */ ]]; do _bk_base=${_bk_base%/}; done
  fi
  _bk_r=$_bk_base
  for _bk_part in "$@"; do _bk_r=$_bk_r$_bk_sep$_bk_part; done
  printf -v "$_bk_out" '%s' "$_bk_r"
}

# bk_dir_var OUT NAME: the value of variable NAME when set, non-empty and absolute; else "".
bk_dir_var() {
  local _bk_val=${!2:-}
  if [[ -n $_bk_val ]] && bk_is_absolute "$_bk_val"; then _bk_val=$_bk_val; else _bk_val=; fi
  printf -v "$1" '%s' "$_bk_val"
}

# bk_posix_home OUT OVERRIDE XDG DEFAULT_PARENT...: the POSIX rule for data/config/state homes:
# the override, else <XDG or DEFAULT_PARENT>/buckler.
bk_posix_home() {
  local _bk_out=$1 _bk_override=$2 _bk_xdg=$3 _bk_h
  shift 3
  bk_dir_var _bk_h "$_bk_override"
  if [[ -z $_bk_h ]]; then
    bk_dir_var _bk_h "$_bk_xdg"
    [[ -n $_bk_h ]] || bk_join _bk_h "$BK_HOME" "$@"
    bk_join _bk_h "$_bk_h" buckler
  fi
  printf -v "$_bk_out" '%s' "$_bk_h"
}

# Sets BK_PLATFORM, BK_HOME and BK_<PATH> for every entry of `resolvePaths`.
bk_resolve_paths() {
  bk_platform
  if [[ $BK_PLATFORM == win32 ]]; then BK_HOME=${USERPROFILE:-}; else BK_HOME=${HOME:-}; fi
  if [[ -z $BK_HOME ]]; then
    if [[ $BK_PLATFORM == win32 ]]; then bk_die "USERPROFILE is not set"; else bk_die "HOME is not set"; fi
  fi
  local local_dir roaming
  if [[ $BK_PLATFORM == win32 ]]; then
    bk_dir_var local_dir LOCALAPPDATA
    [[ -n $local_dir ]] || bk_join local_dir "$BK_HOME" AppData Local
    bk_dir_var roaming APPDATA
    [[ -n $roaming ]] || bk_join roaming "$BK_HOME" AppData Roaming
    bk_dir_var BK_DATA_HOME BUCKLER_DATA_HOME
    [[ -n $BK_DATA_HOME ]] || bk_join BK_DATA_HOME "$local_dir" Buckler
    bk_dir_var BK_CONFIG_HOME BUCKLER_CONFIG_HOME
    [[ -n $BK_CONFIG_HOME ]] || bk_join BK_CONFIG_HOME "$roaming" Buckler
    bk_dir_var BK_STATE_HOME BUCKLER_STATE_HOME
    [[ -n $BK_STATE_HOME ]] || bk_join BK_STATE_HOME "$local_dir" Buckler state
  else
    bk_posix_home BK_DATA_HOME BUCKLER_DATA_HOME XDG_DATA_HOME .local share
    bk_posix_home BK_CONFIG_HOME BUCKLER_CONFIG_HOME XDG_CONFIG_HOME .config
    bk_posix_home BK_STATE_HOME BUCKLER_STATE_HOME XDG_STATE_HOME .local state
  fi
  bk_dir_var BK_BIN_DIR BUCKLER_BIN_DIR
  if [[ -z $BK_BIN_DIR ]]; then
    if [[ $BK_PLATFORM == win32 ]]; then bk_join BK_BIN_DIR "$BK_DATA_HOME" bin; else bk_join BK_BIN_DIR "$BK_HOME" .local bin; fi
  fi
  bk_join BK_CONFIG_FILE "$BK_CONFIG_HOME" config.toml
  bk_join BK_RULES_DIR "$BK_CONFIG_HOME" rules.d
  bk_join BK_AUDIT_LOG "$BK_STATE_HOME" audit.jsonl
  bk_join BK_CACHE_DIR "$BK_STATE_HOME" cache
  bk_join BK_VERSIONS_DIR "$BK_DATA_HOME" versions
  bk_join BK_BUNDLES_DIR "$BK_DATA_HOME" bundles
  bk_join BK_CURRENT "$BK_DATA_HOME" current
  if [[ $BK_PLATFORM == win32 ]]; then bk_join BK_LAUNCHER "$BK_BIN_DIR" buckler.cmd; else bk_join BK_LAUNCHER "$BK_BIN_DIR" buckler; fi
}

# generated: harnesses (node scripts/gen-docs.mjs; do not edit)
# Every harness setup.sh can wire, in the order it wires them (src/harnesses/index.ts).
BK_HARNESSES=(cursor claude-code codex gemini-cli copilot-cli factory-droid qwen-code opencode kilo-code)

# bk_harness_spec NAME: the harness's record (src/harnesses/NAME.ts), for harnessHomeDir and
# harnessConfigFile(…, "user", …): BK_HS_PATH (its folder below the home directory), BK_HS_VAR,
# BK_HS_IS and BK_HS_ABS (the variable that moves it, what its value stands for, absolute only),
# BK_HS_USER (the user-scope file below its folder). Returns 1 for an unknown name.
bk_harness_spec() {
  case $1 in
    cursor)
      BK_HS_PATH=(.cursor)
      BK_HS_VAR= BK_HS_IS= BK_HS_ABS=0
      BK_HS_USER=(hooks.json)
      ;;
    claude-code)
      BK_HS_PATH=(.claude)
      BK_HS_VAR=CLAUDE_CONFIG_DIR BK_HS_IS=folder BK_HS_ABS=0
      BK_HS_USER=(settings.json)
      ;;
    codex)
      BK_HS_PATH=(.codex)
      BK_HS_VAR=CODEX_HOME BK_HS_IS=folder BK_HS_ABS=0
      BK_HS_USER=(hooks.json)
      ;;
    gemini-cli)
      BK_HS_PATH=(.gemini)
      BK_HS_VAR=GEMINI_CLI_HOME BK_HS_IS=home BK_HS_ABS=0
      BK_HS_USER=(settings.json)
      ;;
    copilot-cli)
      BK_HS_PATH=(.copilot)
      BK_HS_VAR=COPILOT_HOME BK_HS_IS=folder BK_HS_ABS=0
      BK_HS_USER=(settings.json)
      ;;
    factory-droid)
      BK_HS_PATH=(.factory)
      BK_HS_VAR= BK_HS_IS= BK_HS_ABS=0
      BK_HS_USER=(settings.json)
      ;;
    qwen-code)
      BK_HS_PATH=(.qwen)
      BK_HS_VAR=QWEN_HOME BK_HS_IS=folder BK_HS_ABS=0
      BK_HS_USER=(settings.json)
      ;;
    opencode)
      BK_HS_PATH=(.config opencode)
      BK_HS_VAR=XDG_CONFIG_HOME BK_HS_IS=parent BK_HS_ABS=1
      BK_HS_USER=(plugins buckler.js)
      ;;
    kilo-code)
      BK_HS_PATH=(.config kilo)
      BK_HS_VAR=XDG_CONFIG_HOME BK_HS_IS=parent BK_HS_ABS=1
      BK_HS_USER=(plugins buckler.js)
      ;;
    *) return 1 ;;
  esac
}
# end generated

# bk_harness_home OUT NAME: harnessHomeDir(NAME), from the harness's record (bk_harness_spec).
bk_harness_home() {
  local _bk_out=$1 _bk_hv= _bk_h
  bk_harness_spec "$2"
  if [[ -n $BK_HS_VAR ]]; then
    if ((BK_HS_ABS)); then bk_dir_var _bk_hv "$BK_HS_VAR"; else _bk_hv=${!BK_HS_VAR:-}; fi
  fi
  if [[ -z $_bk_hv ]]; then
    bk_join _bk_h "$BK_HOME" "${BK_HS_PATH[@]}"
  else
    case $BK_HS_IS in
      folder) _bk_h=$_bk_hv ;;
      home) bk_join _bk_h "$_bk_hv" "${BK_HS_PATH[@]}" ;;
      parent) bk_join _bk_h "$_bk_hv" "${BK_HS_PATH[${#BK_HS_PATH[@]} - 1]}" ;;
    esac
  fi
  printf -v "$_bk_out" '%s' "$_bk_h"
}

# bk_harness_user_file OUT NAME: harnessConfigFile(NAME, 'user', …).
bk_harness_user_file() {
  local _bk_out=$1 _bk_home
  bk_harness_home _bk_home "$2"
  bk_harness_spec "$2"
  bk_join "$_bk_out" "$_bk_home" "${BK_HS_USER[@]}"
}

# bk_harness_env_for NAME FILE: exports what makes harnessConfigFile(NAME, 'user', …) give FILE
# (the file recorded at install time wins over today's variables): the harness's variable, or
# HOME for a harness no variable moves.
bk_harness_env_for() {
  local f=$2 i
  bk_harness_spec "$1"
  for ((i = 0; i < ${#BK_HS_USER[@]}; i++)); do f=${f%/*}; done
  case $BK_HS_IS in
    folder) ;;
    parent) f=${f%/*} ;;
    *) for ((i = 0; i < ${#BK_HS_PATH[@]}; i++)); do f=${f%/*}; done ;;
  esac
  if [[ -n $BK_HS_VAR ]]; then export "$BK_HS_VAR=$f"; else export HOME="$f"; fi
}

# ------------------------------------------------------------------------------------------
# Messages and small helpers
# ------------------------------------------------------------------------------------------

bk_say() { printf 'buckler setup: %s\n' "$*"; }
bk_warn() { printf 'buckler setup: warning: %s\n' "$*" >&2; }
bk_die() {
  printf 'buckler setup: error: %s\n' "$*" >&2
  exit 1
}

# bk_json_str S: sets BK_J to S as a JSON string literal.
bk_json_str() {
  local s=$1 c code u
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\t'/\\t}
  s=${s//$'\r'/\\r}
  if [[ $s == *[[:cntrl:]]* ]]; then
    for code in 1 2 3 4 5 6 7 8 11 12 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 127; do
      printf -v c "\\$(printf '%03o' "$code")"
      printf -v u '\\u%04x' "$code"
      s=${s//$c/$u}
    done
  fi
  BK_J="\"$s\""
}

# Quotes one word for POSIX sh: 'it'\''s'.
bk_sh_quote() {
  local s=$1 out="'" q="'"
  while [[ $s == *"$q"* ]]; do
    out="$out${s%%"$q"*}'\\''"
    s=${s#*"$q"}
  done
  printf '%s' "$out$s'"
}

# ------------------------------------------------------------------------------------------
# paths
# ------------------------------------------------------------------------------------------

cmd_paths() {
  local json=0
  while (($#)); do
    case $1 in
      --json) json=1 ;;
      *) bk_die "paths: unknown option '$1'" ;;
    esac
    shift
  done
  bk_resolve_paths
  if ((json)); then
    local key var out='{' sep=
    for key in platform:BK_PLATFORM home:BK_HOME dataHome:BK_DATA_HOME configHome:BK_CONFIG_HOME \
      stateHome:BK_STATE_HOME configFile:BK_CONFIG_FILE rulesDir:BK_RULES_DIR auditLog:BK_AUDIT_LOG \
      cacheDir:BK_CACHE_DIR versionsDir:BK_VERSIONS_DIR bundlesDir:BK_BUNDLES_DIR current:BK_CURRENT binDir:BK_BIN_DIR \
      launcher:BK_LAUNCHER; do
      var=${key#*:}
      bk_json_str "${!var}"
      out="$out$sep\"${key%%:*}\": $BK_J"
      sep=', '
    done
    local h hsep= f
    out="$out, \"harnesses\": {"
    for h in "${BK_HARNESSES[@]}"; do
      bk_harness_home f "$h"
      bk_json_str "$f"
      out="$out$hsep\"$h\": {\"home\": $BK_J"
      bk_harness_user_file f "$h"
      bk_json_str "$f"
      out="$out, \"user\": $BK_J}"
      hsep=', '
    done
    printf '%s}}\n' "$out"
  else
    printf '%-20s %s\n' \
      'data home' "$BK_DATA_HOME" 'config home' "$BK_CONFIG_HOME" 'state home' "$BK_STATE_HOME" \
      'config file' "$BK_CONFIG_FILE" 'user rules' "$BK_RULES_DIR" 'audit log' "$BK_AUDIT_LOG" \
      'cache' "$BK_CACHE_DIR" 'versions' "$BK_VERSIONS_DIR" 'pack bundles' "$BK_BUNDLES_DIR" 'current' "$BK_CURRENT" \
      'bin dir' "$BK_BIN_DIR" 'launcher' "$BK_LAUNCHER"
    local h f
    for h in "${BK_HARNESSES[@]}"; do
      bk_harness_user_file f "$h"
      printf '%-20s %s\n' "$h (user)" "$f"
    done
  fi
}

# ------------------------------------------------------------------------------------------
# Install state: $BK_DATA_HOME/setup-state, one "key value" per line.
#   previous <version>          kept for --rollback
#   launcher <path>             the launcher this script wrote
#   hook <harness> <file>       a harness config this script wired (uninstall strips it)
# ------------------------------------------------------------------------------------------

bk_state_file() { printf '%s' "$BK_DATA_HOME/setup-state"; }

# Prints the values of key $1, one per line.
bk_state_get() {
  local f k v
  f=$(bk_state_file)
  [[ -f $f ]] || return 0
  while IFS=' ' read -r k v; do
    [[ $k == "$1" ]] && printf '%s\n' "$v"
  done <"$f"
  return 0
}

# Writes the state file atomically from stdin.
bk_state_write() {
  local f
  f=$(bk_state_file)
  cat >"$f.tmp.$$"
  mv -f "$f.tmp.$$" "$f"
}

# Replaces key $1 with value $2 (empty: removes it); keeps other keys.
bk_state_set() {
  local f k v
  f=$(bk_state_file)
  {
    printf '# Written by Buckler scripts/setup.sh; read by its update and uninstall. Do not edit.\n'
    if [[ -f $f ]]; then
      while IFS=' ' read -r k v; do
        [[ -z $k || $k == \#* || $k == "$1" ]] && continue
        printf '%s %s\n' "$k" "$v"
      done <"$f"
    fi
    [[ -z $2 ]] || printf '%s %s\n' "$1" "$2"
  } | bk_state_write
}

# Adds the line "KEY VALUE" unless present (hook <harness> <file>, created <dir>).
bk_state_add() {
  local line f
  while IFS= read -r line; do
    [[ $line == "$2" ]] && return 0
  done < <(bk_state_get "$1")
  f=$(bk_state_file)
  {
    if [[ -f $f ]]; then cat "$f"; else printf '# Written by Buckler scripts/setup.sh; read by its update and uninstall. Do not edit.\n'; fi
    printf '%s %s\n' "$1" "$2"
  } | bk_state_write
}

# Records "created <dir>" for each missing directory from DIR up (outermost first), so that
# uninstall can remove them again when they are empty: directories that did not exist before
# Buckler was installed. Call after bk_lock (the state file lives in the data home).
bk_note_missing() {
  local probe=$1 d
  local -a missing=()
  while [[ -n $probe && $probe != / && ! -d $probe ]]; do
    missing=("$probe" ${missing[@]+"${missing[@]}"})
    probe=${probe%/*}
  done
  for d in ${missing[@]+"${missing[@]}"}; do bk_state_add created "$d"; done
}

# mkdir -p that remembers what it created (bk_note_missing).
bk_mkdir_tracked() {
  bk_note_missing "$1"
  mkdir -p "$1"
}

# The version `current` points at, or nothing.
bk_current_version() {
  [[ -L $BK_CURRENT ]] || return 0
  local target
  target=$(readlink "$BK_CURRENT")
  printf '%s' "${target##*/}"
}

# ------------------------------------------------------------------------------------------
# Requirements, lock
# ------------------------------------------------------------------------------------------

bk_require_posix() {
  if [[ $BK_PLATFORM == win32 ]]; then
    bk_die "setup.sh $1 supports Linux and macOS only. Windows is supported only under WSL for now: run setup.sh inside WSL (docs/install.md)."
  fi
}

bk_require_node() {
  local found major
  found=$(command -v node 2>/dev/null || true)
  [[ -n $found ]] || bk_die "node is not on PATH; Buckler needs Node.js 20.16 or newer (https://nodejs.org)"
  case $found in
    /*) ;;
    *) bk_die "'command -v node' gave '$found', not an absolute path" ;;
  esac
  # 20.16 brought process.getBuiltinModule, which the hook uses to load Node modules lazily.
  major=$("$found" -p 'typeof process.getBuiltinModule === "function" ? process.versions.node.split(".")[0] : 0')
  ((major >= 20)) || bk_die "Node.js $("$found" --version) is too old; Buckler needs 20.16 or newer (22.3 or newer on the 22 line)"
  NODE=$found
}

bk_require_npm() {
  command -v npm >/dev/null 2>&1 || bk_die "npm is not on PATH (it comes with Node.js); it is needed to $1"
}

# The lock: a directory (mkdir is atomic: one run wins) holding `owner`: "<pid> <host> <epoch>".
# A lock is stale, and is removed with a warning, when its owner ran on this host and is gone (a
# killed run), when it is older than BK_LOCK_STALE_MINUTES (a run takes minutes; an older lock
# belongs to a hung run or a reused pid), or when it records no owner and is over a minute old
# (killed between mkdir and writing the owner, or left by an older setup.sh).
BK_LOCK=
BK_LOCK_STALE_MINUTES=120

# Whether process $1 exists (kill -0 fails for another user's process too; ps then tells).
bk_pid_alive() {
  kill -0 "$1" 2>/dev/null && return 0
  ps -p "$1" >/dev/null 2>&1
}

# Prints why the lock directory $1 is stale; prints nothing when its owner may still be running.
bk_lock_stale() {
  local lock=$1 pid='' host='' at=''
  if [[ ! -f $lock/owner ]]; then
    [[ -z $(find "$lock" -maxdepth 0 -mmin +1 2>/dev/null) ]] || printf 'it names no owner and is over a minute old'
    return 0
  fi
  read -r pid host at <"$lock/owner" || true
  if [[ -n $(find "$lock/owner" -mmin +"$BK_LOCK_STALE_MINUTES" 2>/dev/null) ]]; then
    printf 'it is over %s minutes old' "$BK_LOCK_STALE_MINUTES"
  elif [[ ! $pid =~ ^[0-9]+$ ]]; then
    [[ -z $(find "$lock/owner" -mmin +1 2>/dev/null) ]] || printf 'its owner file is unreadable and over a minute old'
  elif [[ $host == "$(uname -n)" ]] && ! bk_pid_alive "$pid"; then
    printf 'process %s that took it is gone' "$pid"
  fi
}

# Removes the stale lock $1 whose owner file read $2: renamed aside first, and put back when it
# turns out to be a newer lock that took the stale one's place meanwhile.
bk_lock_break() {
  local lock=$1 judged=$2 aside="$1.stale-$$"
  mv "$lock" "$aside" 2>/dev/null || return 0
  if [[ $(cat "$aside/owner" 2>/dev/null) != "$judged" && ! -e $lock ]]; then
    mv "$aside" "$lock" 2>/dev/null || true
  fi
  rm -rf "$aside"
}

bk_lock() {
  # Which of the data home's directories are new, before mkdir makes them exist.
  local probe=$BK_DATA_HOME d
  local -a missing=()
  while [[ -n $probe && $probe != / && ! -d $probe ]]; do
    missing=("$probe" ${missing[@]+"${missing[@]}"})
    probe=${probe%/*}
  done
  mkdir -p "$BK_DATA_HOME"
  local lock="$BK_DATA_HOME/.setup-lock" why owner tries=0
  until mkdir "$lock" 2>/dev/null; do
    owner=$(cat "$lock/owner" 2>/dev/null || true)
    why=$(bk_lock_stale "$lock")
    if [[ -z $why ]] || ((++tries > 3)); then
      bk_die "another setup.sh is running (lock $lock${owner:+, held by process ${owner%% *}}). If none is, remove that directory and retry."
    fi
    bk_warn "removing the stale lock $lock: $why"
    bk_lock_break "$lock" "$owner"
  done
  BK_LOCK=$lock
  printf '%s %s %s\n' "$$" "$(uname -n)" "$(date +%s)" >"$BK_LOCK/owner"
  for d in ${missing[@]+"${missing[@]}"}; do
    bk_state_add created "$d"
    BK_NEW_DIRS="$d
$BK_NEW_DIRS"
  done
}

# Releases the lock (if this run holds it).
bk_unlock() {
  [[ -n $BK_LOCK ]] || return 0
  rm -f "$BK_LOCK/owner"
  rmdir "$BK_LOCK" 2>/dev/null || true
  BK_LOCK=
}

# Directories this run created for the data home, innermost first (see bk_cleanup).
BK_NEW_DIRS=
BK_TMP=
bk_cleanup() {
  [[ -z $BK_TMP ]] || rm -rf "$BK_TMP"
  bk_unlock
  # A first install that failed before `current` existed leaves nothing behind.
  if [[ -n $BK_NEW_DIRS && ! -e $BK_CURRENT && ! -L $BK_CURRENT ]]; then
    rm -rf "$BK_VERSIONS_DIR"
    rm -f "$BK_DATA_HOME/setup-state"
    local d
    while IFS= read -r d; do
      [[ -z $d ]] || rmdir "$d" 2>/dev/null || true
    done <<<"$BK_NEW_DIRS"
  fi
}

bk_tmpdir() {
  BK_TMP=$(mktemp -d "${TMPDIR:-/tmp}/buckler-setup.XXXXXX")
}

# ------------------------------------------------------------------------------------------
# Getting a package tarball
# ------------------------------------------------------------------------------------------

# The checkout this script belongs to, when it is one (sources present, not an installed copy).
bk_checkout_root() {
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
  if [[ -f $root/package.json && -f $root/src/cli/main.ts ]]; then printf '%s' "$root"; fi
}

# hex digest of file $2 with algorithm $1 (sha256 | sha512)
bk_digest() {
  "$NODE" -e 'const c=require("crypto"),f=require("fs");process.stdout.write(c.createHash(process.argv[1]).update(f.readFileSync(process.argv[2])).digest(process.argv[3]))' "$1" "$2" "${3:-hex}"
}

# Verifies tarball $1 against every .sha256 / .sha512 / .asc / .sig file next to it.
bk_verify_tarball() {
  local tarball=$1 algo sum want got verified=0 sig
  for algo in sha256 sha512; do
    sum="$tarball.$algo"
    [[ -f $sum ]] || continue
    want=$(awk 'NF { print $1; exit }' "$sum")
    [[ -n $want ]] || bk_die "$sum is empty"
    if [[ $want == "$algo"-* ]]; then
      got="$algo-$(bk_digest "$algo" "$tarball" base64)"
    else
      got=$(bk_digest "$algo" "$tarball")
      want=$(printf '%s' "$want" | tr '[:upper:]' '[:lower:]')
    fi
    if [[ $got != "$want" ]]; then
      bk_die "$algo of $tarball does not match $sum (expected $want, got $got). Not installing."
    fi
    bk_say "verified $algo of $(basename "$tarball")"
    verified=1
  done
  for sig in "$tarball.asc" "$tarball.sig"; do
    [[ -f $sig ]] || continue
    command -v gpg >/dev/null 2>&1 || bk_die "$sig is given but gpg is not installed, so it cannot be checked. Not installing."
    if ! gpg --batch --verify "$sig" "$tarball" 2>"$BK_TMP/gpg.err"; then
      cat "$BK_TMP/gpg.err" >&2
      bk_die "the signature $sig does not verify $tarball. Not installing."
    fi
    bk_say "verified signature $(basename "$sig")"
    verified=1
  done
  if ((!verified)); then
    bk_warn "no $(basename "$tarball").sha256, .sha512, .asc or .sig next to it: integrity not verified"
  fi
}

# Sets BK_TARBALL (and BK_CHECKOUT when packing this checkout).
# (Buckler is not on the npm registry: a checkout or a tarball.)
bk_get_tarball() {
  local from=$1 out
  BK_CHECKOUT=
  if [[ -n $from ]]; then
    [[ -f $from ]] || bk_die "--from $from: no such file"
    BK_TARBALL=$(cd "$(dirname "$from")" && pwd -P)/$(basename "$from")
    bk_verify_tarball "$BK_TARBALL"
  else
    BK_CHECKOUT=$(bk_checkout_root)
    [[ -n $BK_CHECKOUT ]] || bk_die "this setup.sh is not in a Buckler checkout; give --from TARBALL"
    bk_require_npm "pack this checkout"
    [[ -d $BK_CHECKOUT/node_modules/esbuild ]] ||
      bk_die "$BK_CHECKOUT/node_modules has no esbuild: run 'npm ci' in the checkout first (it needs the network), then retry"
    bk_say "building and packing $BK_CHECKOUT (npm pack)"
    out=$(cd "$BK_CHECKOUT" && npm pack --offline --json --pack-destination "$BK_TMP" 2>"$BK_TMP/npm.err") ||
      { cat "$BK_TMP/npm.err" >&2; bk_die "npm pack failed in $BK_CHECKOUT"; }
    BK_TARBALL="$BK_TMP/$(printf '%s' "$out" | "$NODE" -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0,"utf8"))[0].filename)')"
  fi
}

# ------------------------------------------------------------------------------------------
# Runtime dependencies, offline first
# ------------------------------------------------------------------------------------------

# Copies the runtime dependency closure of package dir $1 from the node_modules dirs given
# after it (first that has a package wins). Prints the names it could not find.
bk_copy_deps() {
  "$NODE" - "$@" <<'JS'
const fs = require('fs'), path = require('path');
const [dest, ...sources] = process.argv.slice(2);
const read = (d) => { try { return JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8')); } catch { return null; } };
const runtimeDeps = (pkg) => Object.keys({ ...(pkg.dependencies || {}), ...(pkg.optionalDependencies || {}) });
const missing = [];
const todo = runtimeDeps(read(dest) || {}).map((name) => ({ name, from: null }));
const seen = new Set();
while (todo.length) {
  const { name, from } = todo.shift();
  if (seen.has(name)) continue;
  seen.add(name);
  const target = path.join(dest, 'node_modules', name);
  const there = read(target);
  if (there) {
    // Already in the package (its bundled dependencies): what it needs may still be missing.
    for (const dep of runtimeDeps(there)) {
      if (!read(path.join(target, 'node_modules', dep))) todo.push({ name: dep, from: null });
    }
    continue;
  }
  // Nested copies travel with their parent; look in the parent's source first.
  const dirs = from ? [from, ...sources] : sources;
  const src = dirs.map((d) => path.join(d, name)).find((d) => read(d));
  if (!src) { missing.push(name); continue; }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.cpSync(src, target, { recursive: true, dereference: true });
  const srcRoot = src.slice(0, src.length - name.length - 1);
  for (const dep of runtimeDeps(read(src))) {
    if (!read(path.join(target, 'node_modules', dep))) todo.push({ name: dep, from: srcRoot });
  }
}
process.stdout.write(missing.join(' '));
JS
}

# npm's own check that dir $1 has every runtime dependency in a satisfying version.
bk_deps_ok() { (cd "$1" && npm ls --offline --omit=dev --all >/dev/null 2>&1); }

bk_install_deps() {
  local dir=$1 online=$2 deps missing src
  local -a sources=()
  deps=$("$NODE" -p 'Object.keys(require(process.argv[1]).dependencies||{}).join(" ")' "$dir/package.json")
  [[ -n $deps ]] || return 0
  [[ -z $BK_CHECKOUT ]] || sources+=("$BK_CHECKOUT/node_modules")
  src=$(bk_checkout_root)
  [[ -z $src || $src == "$BK_CHECKOUT" ]] || sources+=("$src/node_modules")
  [[ ! -d $BK_CURRENT/node_modules ]] || sources+=("$(cd "$BK_CURRENT/node_modules" && pwd -P)")
  if ((${#sources[@]})); then
    missing=$(bk_copy_deps "$dir" "${sources[@]}")
    if [[ -z $missing ]] && bk_deps_ok "$dir"; then
      bk_say "runtime dependencies ($deps) copied from ${sources[0]%/node_modules}"
      return 0
    fi
    rm -rf "$dir/node_modules"
  fi
  if (cd "$dir" && npm install --omit=dev --offline --ignore-scripts --no-audit --no-fund --no-package-lock >"$BK_TMP/npm.out" 2>&1); then
    bk_say "runtime dependencies ($deps) installed from the npm cache (offline)"
    return 0
  fi
  rm -rf "$dir/node_modules"
  if ((online)); then
    bk_say "fetching runtime dependencies ($deps) from the npm registry (you asked for --online)"
    (cd "$dir" && npm install --omit=dev --ignore-scripts --no-audit --no-fund --no-package-lock >"$BK_TMP/npm.out" 2>&1) ||
      { cat "$BK_TMP/npm.out" >&2; bk_die "npm install of the runtime dependencies failed"; }
    return 0
  fi
  bk_die "the runtime dependencies ($deps) are not available offline (not in a checkout's node_modules, the current install, or the npm cache). Rerun with --online to let npm fetch them from the registry."
}

# ------------------------------------------------------------------------------------------
# current pointer, launcher, hooks
# ------------------------------------------------------------------------------------------

# Points `current` at versions/$1 with one rename (readers never see it missing).
bk_point_current() {
  local tmp="$BK_CURRENT.tmp.$$"
  ln -sfn "versions/$1" "$tmp"
  if mv --version >/dev/null 2>&1; then mv -fT "$tmp" "$BK_CURRENT"; else mv -fh "$tmp" "$BK_CURRENT"; fi
}

BK_LAUNCHER_MARK="launcher written by Buckler's scripts/setup.sh"

bk_is_our_launcher() { [[ -f $1 ]] && grep -qF "$BK_LAUNCHER_MARK" "$1"; }

bk_check_launcher_free() {
  if [[ -e $BK_LAUNCHER || -L $BK_LAUNCHER ]] && ! bk_is_our_launcher "$BK_LAUNCHER"; then
    bk_die "$BK_LAUNCHER exists and was not written by setup.sh; move it away or set BUCKLER_BIN_DIR to another directory"
  fi
}

bk_write_launcher() {
  local bundle="$BK_CURRENT/dist/buckler.cjs"
  bk_check_launcher_free
  bk_mkdir_tracked "$BK_BIN_DIR"
  {
    printf '#!/bin/sh\n'
    printf '# buckler %s; `setup.sh uninstall` removes it.\n' "$BK_LAUNCHER_MARK"
    printf 'node=%s\n' "$(bk_sh_quote "$NODE")"
    printf '[ -x "$node" ] || node=node\n'
    printf 'exec "$node" %s "$@"\n' "$(bk_sh_quote "$bundle")"
  } >"$BK_LAUNCHER.tmp.$$"
  chmod 755 "$BK_LAUNCHER.tmp.$$"
  mv -f "$BK_LAUNCHER.tmp.$$" "$BK_LAUNCHER"
  bk_state_set launcher "$BK_LAUNCHER"
}

# Wires harnesses $@ (names in BK_HARNESSES) through `buckler hooks merge`. Returns 1 if any failed.
bk_wire_hooks() {
  local h file failed=0 cmd
  # node and the bundle by absolute path, through `current`: stable across updates, and no
  # extra shell exec on every hook call (the launcher is for people; hooks run per command).
  cmd="$(bk_sh_quote "$NODE") $(bk_sh_quote "$BK_CURRENT/dist/buckler.cjs")"
  for h in "$@"; do
    bk_harness_user_file file "$h"
    bk_state_add hook "$h $file"
    if "$BK_LAUNCHER" hooks merge --harness "$h" --scope user --command "$cmd" >"$BK_TMP/hooks.out" 2>&1; then
      # What changed, one line per harness (an upgrade moves an older wiring to today's).
      bk_say "wired $h hooks in $file: $(sed -n 's/^  summary  //p' "$BK_TMP/hooks.out" | head -n 1)"
      # What the harness still needs before the hooks run (a trust step): shown, never silent.
      while IFS= read -r w; do bk_warn "$h: $w"; done < <(sed -n 's/^  warning  //p' "$BK_TMP/hooks.out")
    else
      cat "$BK_TMP/hooks.out" >&2
      # The command to paste, one shell word per argument (the hook command is one word).
      bk_warn "could not wire $h hooks in $file (see above); fix it and rerun, or run: $(bk_sh_quote "$BK_LAUNCHER") hooks merge --harness $h --scope user --command $(bk_sh_quote "$cmd")"
      failed=1
    fi
  done
  return "$failed"
}

bk_check_harness_name() {
  bk_harness_spec "$1" || bk_die "--harness $1: expected ${BK_HARNESSES[*]} or all"
}

# ------------------------------------------------------------------------------------------
# install / update
# ------------------------------------------------------------------------------------------

cmd_install() {
  local mode=$1 from= online=0 no_hooks=0 rollback=0 with_packs=0 h
  local -a harnesses=()
  shift
  while (($#)); do
    case $1 in
      --from) [[ $# -ge 2 ]] || bk_die "--from needs a tarball path"; from=$2; shift ;;
      --from=*) from=${1#--from=} ;;
      --from-registry | --from-registry=*) bk_die "--from-registry: Buckler is not published on the npm registry (a package named buckler there is not this project); install from a checkout or with --from TARBALL, an npm pack .tgz (docs/install.md)" ;;
      --online) online=1 ;;
      --harness) [[ $# -ge 2 ]] || bk_die "--harness needs a name"; harnesses+=("$2"); shift ;;
      --harness=*) harnesses+=("${1#--harness=}") ;;
      --no-hooks) no_hooks=1 ;;
      --rollback) [[ $mode == update ]] || bk_die "--rollback goes with update"; rollback=1 ;;
      --with-packs) [[ $mode == update ]] || bk_die "--with-packs goes with update"; with_packs=1 ;;
      *) bk_die "$mode: unknown option '$1' (see docs/install.md)" ;;
    esac
    shift
  done
  bk_resolve_paths
  bk_require_posix "$mode"
  bk_require_node
  bk_check_launcher_free
  bk_tmpdir
  bk_lock
  # Buckler itself creates these later (audit log, cache; config.toml is the person's).
  bk_note_missing "$BK_STATE_HOME"
  bk_note_missing "$BK_CONFIG_HOME"

  local existing
  existing=$(bk_current_version)
  if [[ $mode == update && -z $existing ]]; then
    bk_die "Buckler is not installed in $BK_DATA_HOME; run 'setup.sh install' first"
  fi
  if ((rollback)); then
    ((!with_packs)) || bk_die "--with-packs does not go with --rollback (roll a bundle back with: buckler pack rollback NAME)"
    bk_rollback "$existing"
    return
  fi

  # Which harnesses to wire: update re-wires the recorded ones; then the named ones, or (install
  # without --harness) those whose directory exists. Each once.
  local -a wire=()
  local rec listed found
  if ((!no_hooks)); then
    local -a want=()
    if [[ $mode == update ]]; then
      while IFS=' ' read -r h rec; do [[ -z $h ]] || want+=("$h"); done < <(bk_state_get hook)
    fi
    if ((${#harnesses[@]})); then
      for h in "${harnesses[@]}"; do
        if [[ $h == all ]]; then want+=("${BK_HARNESSES[@]}"); else bk_check_harness_name "$h"; want+=("$h"); fi
      done
    elif [[ $mode == install ]]; then
      for h in "${BK_HARNESSES[@]}"; do
        bk_harness_home found "$h"
        [[ ! -d $found ]] || want+=("$h")
      done
    fi
    for h in ${want[@]+"${want[@]}"}; do
      listed=" ${wire[*]-} "
      [[ $listed == *" $h "* ]] || wire+=("$h")
    done
  fi

  bk_get_tarball "$from"
  mkdir -p "$BK_TMP/x"
  tar -xzf "$BK_TARBALL" -C "$BK_TMP/x" || bk_die "$BK_TARBALL is not a readable .tgz"
  local pkg="$BK_TMP/x/package" name version
  [[ -f $pkg/package.json ]] || bk_die "$BK_TARBALL has no package/package.json; is it an npm pack tarball?"
  name=$("$NODE" -p 'require(process.argv[1]).name' "$pkg/package.json")
  version=$("$NODE" -p 'require(process.argv[1]).version' "$pkg/package.json")
  [[ $name == buckler ]] || bk_die "$BK_TARBALL holds package '$name', not buckler"
  [[ $version =~ ^[0-9A-Za-z][0-9A-Za-z.+-]*$ ]] || bk_die "$BK_TARBALL has an unusable version '$version'"
  [[ -f $pkg/dist/buckler.cjs ]] || bk_die "$BK_TARBALL has no dist/buckler.cjs"

  mkdir -p "$BK_VERSIONS_DIR"
  local stage="$BK_VERSIONS_DIR/.staging-$version-$$" target="$BK_VERSIONS_DIR/$version"
  rm -rf "$stage"
  mv "$pkg" "$stage"
  bk_install_deps "$stage" "$online"
  local said
  said=$("$NODE" "$stage/dist/buckler.cjs" --version 2>&1) || bk_die "the new bundle does not start: $said"

  # Replace versions/<version> (a reinstall of the same version): two renames.
  if [[ -e $target ]]; then
    mv "$target" "$BK_VERSIONS_DIR/.old-$version-$$"
  fi
  mv "$stage" "$target"
  rm -rf "$BK_VERSIONS_DIR/.old-$version-$$"
  bk_point_current "$version"
  bk_say "installed buckler $version in $target (reports $said); current -> versions/$version"

  # Keep the previous version for --rollback; remove any older one.
  local previous
  previous=$(bk_state_get previous | tail -n 1)
  if [[ -n $existing && $existing != "$version" ]]; then previous=$existing; fi
  [[ $previous != "$version" ]] || previous=
  bk_state_set previous "$previous"
  bk_prune_versions "$version" "$previous"

  bk_write_launcher
  bk_say "launcher: $BK_LAUNCHER"

  local status=0
  if ((with_packs)); then
    # The new version updates the bundles: it verifies them as it will load them.
    bk_say "updating signed pack bundles (--with-packs)"
    "$NODE" "$target/dist/buckler.cjs" pack update || { status=1; bk_warn "some pack bundles were not updated (see above); each one left as it was"; }
  fi
  if ((${#wire[@]})); then
    bk_wire_hooks "${wire[@]}" || status=1
  elif [[ $mode == install && $no_hooks == 0 ]]; then
    local looked= sep=
    for h in "${BK_HARNESSES[@]}"; do
      bk_harness_home found "$h"
      looked="$looked$sep$found"
      sep=', '
    done
    bk_say "no harness found ($looked); wire one later with: setup.sh update --harness NAME (${BK_HARNESSES[*]})"
  fi
  bk_path_hint
  return "$status"
}

# Removes every versions/* except the names given.
bk_prune_versions() {
  local d base keep
  for d in "$BK_VERSIONS_DIR"/* "$BK_VERSIONS_DIR"/.staging-* "$BK_VERSIONS_DIR"/.old-*; do
    [[ -e $d ]] || continue
    base=${d##*/}
    for keep in "$@"; do
      [[ -n $keep && $base == "$keep" ]] && continue 2
    done
    rm -rf "$d"
    bk_say "removed old version $base"
  done
}

bk_rollback() {
  local existing=$1 previous
  previous=$(bk_state_get previous | tail -n 1)
  [[ -n $previous ]] || bk_die "no previous version is kept; nothing to roll back to"
  [[ -f $BK_VERSIONS_DIR/$previous/dist/buckler.cjs ]] || bk_die "the previous version $previous is missing from $BK_VERSIONS_DIR"
  bk_point_current "$previous"
  bk_state_set previous "$existing"
  bk_say "rolled back: current -> versions/$previous (versions/$existing kept; 'update --rollback' again returns to it)"
  local -a wire=()
  local h rec
  while IFS=' ' read -r h rec; do [[ -z $h ]] || wire+=("$h"); done < <(bk_state_get hook)
  if [[ -x $BK_LAUNCHER ]] && ((${#wire[@]})); then bk_wire_hooks "${wire[@]}"; fi
}

bk_path_hint() {
  case ":$PATH:" in
    *":$BK_BIN_DIR:"*) ;;
    *) bk_say "note: $BK_BIN_DIR is not on your PATH; add it, e.g. export PATH=\"$BK_BIN_DIR:\$PATH\"" ;;
  esac
}

# ------------------------------------------------------------------------------------------
# uninstall
# ------------------------------------------------------------------------------------------

cmd_uninstall() {
  local purge=0 force=0
  while (($#)); do
    case $1 in
      --purge-config) purge=1 ;;
      --force) force=1 ;;
      *) bk_die "uninstall: unknown option '$1' (see docs/install.md)" ;;
    esac
    shift
  done
  bk_resolve_paths
  bk_require_posix uninstall
  bk_require_node
  local installed=0
  [[ ! -f $(bk_state_file) && ! -e $BK_CURRENT && ! -L $BK_CURRENT ]] || installed=1
  bk_tmpdir
  bk_lock

  # The program that strips: the installed bundle, run directly.
  local bundle="$BK_CURRENT/dist/buckler.cjs" h file failed=0
  local -a hooks=()
  while IFS=' ' read -r h file; do [[ -z $h ]] || hooks+=("$h $file"); done < <(bk_state_get hook)
  local entry
  for entry in ${hooks[@]+"${hooks[@]}"}; do
    h=${entry%% *}
    file=${entry#* }
    if [[ ! -f $file ]]; then
      bk_say "$h: $file no longer exists; nothing to strip"
      continue
    fi
    if [[ ! -f $bundle ]]; then
      bk_warn "cannot strip $h hooks from $file: $bundle is missing"
      failed=1
      continue
    fi
    # The file recorded at install time wins over today's harness variables (CLAUDE_CONFIG_DIR,
    # CODEX_HOME, …; HOME for a harness no variable moves).
    if ! bk_harness_spec "$h"; then
      bk_warn "cannot strip $h hooks from $file: setup.sh no longer knows the harness $h"
      failed=1
      continue
    fi
    if (bk_harness_env_for "$h" "$file"
      "$NODE" "$bundle" hooks strip --harness "$h" --scope user >"$BK_TMP/hooks.out" 2>&1); then
      bk_say "removed Buckler's $h hooks from $file"
    elif ! grep -q -e "--driver $h" -- "$file" 2>/dev/null; then
      # Recorded because wiring was tried, but the merge never wrote it (it failed): nothing of
      # Buckler's is in it, so there is nothing to strip and no reason to stop.
      bk_say "$h: $file holds no Buckler hooks (Buckler never wrote it); skipped"
    else
      cat "$BK_TMP/hooks.out" >&2
      bk_warn "could not strip $h hooks from $file (see above)"
      failed=1
    fi
  done
  if ((failed && !force)); then
    bk_die "stopped before removing anything else, so you can fix the above and rerun; 'uninstall --force' removes Buckler anyway and leaves those hook entries"
  fi

  local launcher created
  created=$(bk_state_get created)
  launcher=$(bk_state_get launcher | tail -n 1)
  [[ -n $launcher ]] || launcher=$BK_LAUNCHER
  if bk_is_our_launcher "$launcher"; then
    rm -f "$launcher"
    bk_say "removed $launcher"
  elif [[ -e $launcher ]]; then
    bk_warn "left $launcher alone: setup.sh did not write it"
  fi
  local what
  for what in "$BK_VERSIONS_DIR" "$BK_CURRENT" "$BK_CACHE_DIR"; do
    if [[ -e $what || -L $what ]]; then
      rm -rf "$what"
      bk_say "removed $what"
    fi
  done
  rm -f "$(bk_state_file)"
  if ((purge)); then
    rm -f "$BK_CONFIG_FILE" "$BK_AUDIT_LOG"
    rm -rf "$BK_RULES_DIR"
    bk_say "removed $BK_CONFIG_FILE, $BK_RULES_DIR and $BK_AUDIT_LOG (--purge-config)"
  else
    [[ ! -e $BK_CONFIG_FILE && ! -e $BK_RULES_DIR ]] ||
      bk_say "kept your configuration in $BK_CONFIG_HOME (uninstall --purge-config removes it)"
    [[ ! -e $BK_AUDIT_LOG ]] || bk_say "kept the audit log $BK_AUDIT_LOG (uninstall --purge-config removes it)"
  fi
  # Installed signed pack bundles (buckler pack): kept like the configuration that trusts them.
  if [[ -d $BK_BUNDLES_DIR ]]; then
    if ((purge)); then
      rm -rf "$BK_BUNDLES_DIR"
      bk_say "removed the installed pack bundles in $BK_BUNDLES_DIR (--purge-config)"
    else
      rmdir "$BK_BUNDLES_DIR/previous" "$BK_BUNDLES_DIR/sources" "$BK_BUNDLES_DIR" 2>/dev/null || true
      [[ ! -e $BK_BUNDLES_DIR ]] || bk_say "kept the installed pack bundles in $BK_BUNDLES_DIR (uninstall --purge-config removes them)"
    fi
  fi
  # Only directories that are now empty; never anything of the person's.
  bk_unlock
  rmdir "$BK_DATA_HOME" "$BK_STATE_HOME" "$BK_CONFIG_HOME" 2>/dev/null || true
  # Directories setup.sh created (innermost first), when nothing else has moved in.
  local d
  while IFS= read -r d; do
    [[ -z $d ]] || rmdir "$d" 2>/dev/null || true
  done < <(printf '%s\n' "$created" | awk '{ a[NR] = $0 } END { for (i = NR; i > 0; i--) print a[i] }')
  if ((installed)); then bk_say "Buckler is uninstalled"; else bk_say "Buckler was not installed in $BK_DATA_HOME; nothing else to remove"; fi
}

# ------------------------------------------------------------------------------------------
# System mode: the locked-down install (docs/install.md "Locked-down install"), as root.
#   setup.sh install   --system [--from TARBALL] [--online] [--node PATH]
#   setup.sh update    --system --recompile      (after a change in /etc/buckler)
#   setup.sh uninstall --system
#   setup.sh paths     --system [--json]
# Paths MIRROR src/paths.ts `SYSTEM_DIRS`, `resolveSystemPaths`, `SYSTEM_SETTINGS`; the parity
# test compares them. Fixed locations: no variable moves them.
# ------------------------------------------------------------------------------------------

BK_SYSTEM_CODE=/opt/buckler
BK_SYSTEM_CONFIG=/etc/buckler
BK_SYSTEM_STATE=/var/lib/buckler

# Whether "--system" is among the arguments.
bk_has_system_flag() {
  local a
  for a in "$@"; do [[ $a != --system ]] || return 0; done
  return 1
}

# The system settings file of harness $1 where install --system wires it; nothing when none.
bk_system_settings_file() {
  case $1 in
    cursor) printf '%s' /etc/cursor/hooks.json ;;
    claude-code) printf '%s' /etc/claude-code/managed-settings.json ;;
    gemini-cli) printf '%s' /etc/gemini-cli/settings.json ;;
    factory-droid) printf '%s' /etc/factory/settings.json ;;
    qwen-code) printf '%s' /etc/qwen-code/settings.json ;;
    *) ;;
  esac
}

# Sets the BK_* locations to the locked-down install's (resolveSystemPaths). The approvals'
# user: this user's id; root's with SUDO_UID set: that user's.
bk_system_paths() {
  bk_platform
  BK_HOME=${HOME:-/}
  local uid
  uid=$(id -u)
  if [[ $uid == 0 && ${SUDO_UID:-} =~ ^[1-9][0-9]{0,9}$ ]]; then uid=$SUDO_UID; fi
  BK_DATA_HOME=$BK_SYSTEM_CODE
  BK_CONFIG_HOME=$BK_SYSTEM_CONFIG
  BK_STATE_HOME=$BK_SYSTEM_STATE/$uid
  BK_CONFIG_FILE=$BK_SYSTEM_CONFIG/config.toml
  BK_RULES_DIR=$BK_SYSTEM_CONFIG/rules.d
  BK_CACHE_DIR=$BK_SYSTEM_CODE/cache
  BK_VERSIONS_DIR=$BK_SYSTEM_CODE/versions
  BK_BUNDLES_DIR=$BK_SYSTEM_CONFIG/bundles
  BK_CURRENT=$BK_SYSTEM_CODE/current
  BK_BIN_DIR=$BK_SYSTEM_CODE/bin
  BK_LAUNCHER=$BK_SYSTEM_CODE/bin/buckler
  # The person's audit log: from the home directory only (resolvePaths without variables).
  local h=$BK_HOME
  bk_join BK_AUDIT_LOG "$h" .local state buckler audit.jsonl
}

cmd_paths_system() {
  local json=0 a
  for a in "$@"; do
    case $a in
      --system) ;;
      --json) json=1 ;;
      *) bk_die "paths: unknown option '$a'" ;;
    esac
  done
  bk_system_paths
  if ((json)); then
    local key var out='{' sep=
    for key in home:BK_HOME dataHome:BK_DATA_HOME configHome:BK_CONFIG_HOME stateHome:BK_STATE_HOME \
      configFile:BK_CONFIG_FILE rulesDir:BK_RULES_DIR auditLog:BK_AUDIT_LOG cacheDir:BK_CACHE_DIR \
      versionsDir:BK_VERSIONS_DIR bundlesDir:BK_BUNDLES_DIR current:BK_CURRENT binDir:BK_BIN_DIR launcher:BK_LAUNCHER; do
      var=${key#*:}
      bk_json_str "${!var}"
      out="$out$sep\"${key%%:*}\": $BK_J"
      sep=', '
    done
    local h hsep=
    out="$out, \"systemSettings\": {"
    for h in "${BK_HARNESSES[@]}"; do
      bk_json_str "$(bk_system_settings_file "$h")"
      out="$out$hsep\"$h\": $BK_J"
      hsep=', '
    done
    printf '%s}}\n' "$out"
  else
    printf '%-20s %s\n' 'code' "$BK_DATA_HOME" 'config file' "$BK_CONFIG_FILE" 'system rules' "$BK_RULES_DIR" \
      'pack bundles' "$BK_BUNDLES_DIR" 'cache' "$BK_CACHE_DIR" 'approvals' "$BK_STATE_HOME" 'audit log' "$BK_AUDIT_LOG" \
      'launcher' "$BK_LAUNCHER"
  fi
}

bk_require_root() {
  [[ $(id -u) == 0 ]] || bk_die "$1 --system must run as root (sudo $0 $1 --system)"
}

# Whether path $1 and every directory above it is owned by root and not writable by group or others.
bk_root_owned_chain() {
  local p=$1 owner perm
  while :; do
    owner=$(stat -c %u "$p" 2>/dev/null) || return 1
    perm=$(stat -c %a "$p" 2>/dev/null) || return 1
    [[ $owner == 0 ]] || return 1
    # group/other write bits (sticky /tmp counts as writable: a file there can be swapped).
    (( (8#$perm & 8#022) == 0 )) || return 1
    [[ $p != / ]] || return 0
    p=$(dirname "$p")
  done
}

# Sets NODE to the node the hooks run: --node PATH or the one on PATH, resolved to a real path
# that root owns and only root can replace.
bk_require_system_node() {
  local given=$1 found real
  found=${given:-$(command -v node 2>/dev/null || true)}
  [[ -n $found ]] || bk_die "node is not on PATH; give --node /usr/bin/node"
  [[ $found == /* ]] || bk_die "the node '$found' is not an absolute path; give --node /usr/bin/node"
  real=$(readlink -f "$found") || bk_die "cannot resolve $found"
  [[ -x $real ]] || bk_die "$real is not executable"
  bk_root_owned_chain "$real" ||
    bk_die "refusing the node $real: it (or a directory above it) is not owned by root or can be written by others, so a person could replace what every hook runs; install Node.js system-wide (e.g. /usr/bin/node) or give --node PATH"
  local major
  major=$("$real" -p 'typeof process.getBuiltinModule === "function" ? process.versions.node.split(".")[0] : 0')
  ((major >= 20)) || bk_die "Node.js $("$real" --version) is too old; Buckler needs 20.16 or newer"
  NODE=$real
}

BK_SYSTEM_CONFIG_MARK="# Buckler's locked-down install: this file decides (docs/install.md)."

bk_system_config_template() {
  printf '%s\n' "$BK_SYSTEM_CONFIG_MARK" \
    '# The person'"'"'s own config.toml and rules.d can only tighten what is set here.' \
    '[core]' 'tier = "baseline"' '' \
    '[system]' \
    '# sudo buckler allow / sudo buckler trust; false switches them off.' \
    'allow = true' 'trust = true' \
    '# How long a grant made with sudo buckler allow lasts, in seconds (default 120, at most 600).' \
    'grant_seconds = 120' \
    '# true: BUCKLER_BYPASS=1 / RETHUNK_ALLOW_SHELL=1 where a harness starts let everything through.' \
    'allow_bypass = false' \
    '# true: BUCKLER_*_HOME, BUCKLER_BIN_DIR and XDG_* move the person'"'"'s own config, rules.d and audit log.' \
    'allow_location_variables = false'
}

# Runs the installed bundle with a clean environment as root: HOME an empty scratch directory, so
# no person's config or root's own is read.
bk_system_node() {
  (cd "$BK_TMP/warm" && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$BK_TMP/warm" LANG=C "$NODE" "$BK_CURRENT/dist/buckler.cjs" "$@")
}

# The events that warm the V8 code cache for harness $1: a shell allow and a shell deny.
bk_warm_events() {
  local d=$BK_TMP/warm
  case $1 in
    cursor)
      printf '{"conversation_id":"c","generation_id":"g%s","model":"m","cursor_version":"2.6.14","workspace_roots":["%s"],"hook_event_name":"beforeShellExecution","command":"%s","cwd":"%s","sandbox":false}\n' 1 "$d" 'git status' "$d" 2 "$d" 'git push --force origin main' "$d" ;;
    claude-code | factory-droid)
      local tool=Bash; [[ $1 == claude-code ]] || tool=Execute
      printf '{"session_id":"s","transcript_path":"/dev/null","cwd":"%s","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"%s","tool_input":{"command":"%s"},"tool_use_id":"t"}\n' "$d" "$tool" 'git status' "$d" "$tool" 'git push --force origin main' ;;
    gemini-cli)
      printf '{"session_id":"s","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","tool_name":"run_shell_command","tool_input":{"command":"%s"}}\n' "$d" 'git status' "$d" 'git push --force origin main' ;;
    qwen-code)
      printf '{"session_id":"s","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"run_shell_command","tool_input":{"command":"%s"},"tool_use_id":"t"}\n' "$d" 'git status' "$d" 'git push --force origin main' ;;
  esac
}

# Wires harness $1 in its system settings file $2: the file is merged in a scratch HOME exactly as
# the user scope would be (same shape), then put in place root-owned, 0644, atomically.
bk_system_wire() {
  local h=$1 file=$2 home="$BK_TMP/wire-$1" user cmd
  mkdir -p "$home"
  user=$(cd "$home" && env -i PATH=/usr/bin:/bin HOME="$home" "$NODE" "$BK_CURRENT/dist/buckler.cjs" paths --json |
    "$NODE" -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0,"utf8")).harnesses[process.argv[1]].user)' "$h")
  mkdir -p "$(dirname "$user")"
  [[ ! -f $file ]] || cp "$file" "$user"
  cmd="$(bk_sh_quote "$NODE") $(bk_sh_quote "$BK_CURRENT/dist/buckler.cjs")"
  if ! (cd "$home" && env -i PATH=/usr/bin:/bin HOME="$home" "$NODE" "$BK_CURRENT/dist/buckler.cjs" hooks merge --harness "$h" --scope user --command "$cmd") >"$BK_TMP/hooks.out" 2>&1; then
    cat "$BK_TMP/hooks.out" >&2
    bk_warn "could not wire $h in $file (see above)"
    return 1
  fi
  local dir=${file%/*}
  if [[ ! -d $dir ]]; then
    mkdir -p "$dir"
    bk_state_add syscreated "$dir"
  fi
  if [[ -f $file ]]; then bk_state_add syshook "$h existed $file"; else bk_state_add syshook "$h created $file"; fi
  install -o 0 -g 0 -m 0644 "$user" "$file.tmp.$$" && mv -f "$file.tmp.$$" "$file" || return 1
  bk_say "wired $h in $file (the person cannot change it)"
}

# Strips Buckler from harness $1's system file $3; removes the file when install created it and
# nothing else is left in it.
bk_system_unwire() {
  local h=$1 how=$2 file=$3 home="$BK_TMP/unwire-$1" user
  [[ -f $file ]] || { bk_say "$h: $file no longer exists; nothing to strip"; return 0; }
  mkdir -p "$home"
  user=$(cd "$home" && env -i PATH=/usr/bin:/bin HOME="$home" "$NODE" "$BK_CURRENT/dist/buckler.cjs" paths --json |
    "$NODE" -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0,"utf8")).harnesses[process.argv[1]].user)' "$h")
  mkdir -p "$(dirname "$user")"
  cp "$file" "$user"
  if ! (cd "$home" && env -i PATH=/usr/bin:/bin HOME="$home" "$NODE" "$BK_CURRENT/dist/buckler.cjs" hooks strip --harness "$h" --scope user) >"$BK_TMP/hooks.out" 2>&1; then
    cat "$BK_TMP/hooks.out" >&2
    bk_warn "could not strip $h hooks from $file (see above)"
    return 1
  fi
  if [[ ! -f $user ]]; then
    # The strip left nothing: the file held only Buckler's hooks.
    if [[ $how == created ]]; then
      rm -f "$file"
      bk_say "removed $file (install --system had created it)"
    else
      printf '{}\n' >"$user"
    fi
  fi
  if [[ ! -f $user ]]; then
    :
  elif [[ $how == created ]] && "$NODE" -e '
    const v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const empty = (o) => o === null || (typeof o === "object" && Object.values(o).every(empty)) || (Array.isArray(o) && o.length === 0);
    process.exit(empty(v) ? 0 : 1)' "$user" 2>/dev/null; then
    rm -f "$file"
    bk_say "removed $file (install --system had created it)"
  else
    install -o 0 -g 0 -m 0644 "$user" "$file.tmp.$$" && mv -f "$file.tmp.$$" "$file" || return 1
    bk_say "removed Buckler's $h hooks from $file"
  fi
}

# The system packs compiled into the root-owned cache, then the V8 code cache made by hooks of
# each harness $@ (an allow and a deny each), both as every person's hook will read them. Again
# after any change in /etc/buckler (`update --system --recompile`): the hooks cannot write the
# cache, so until then each hook compiles the packs itself.
bk_system_compile() {
  local h ev
  rm -rf "$BK_CACHE_DIR"
  mkdir -p "$BK_TMP/warm"
  bk_system_node check 'git status' >/dev/null 2>"$BK_TMP/check.err" ||
    { cat "$BK_TMP/check.err" >&2; bk_die "the system packs do not compile (see above)"; }
  [[ -d $BK_CACHE_DIR ]] || bk_die "the compiled-pack cache was not made in $BK_CACHE_DIR"
  for h in "$@"; do
    while IFS= read -r ev; do
      printf '%s' "$ev" | bk_system_node --driver "$h" >/dev/null 2>&1 || true
    done < <(bk_warm_events "$h")
  done
  chmod -R go-w,a+rX "$BK_DATA_HOME"
  bk_say "compiled the system packs into $BK_CACHE_DIR and made the code cache in $(readlink -f "$BK_CURRENT")/dist"
}

# update --system --recompile: after the administrator changed /etc/buckler.
bk_system_recompile() {
  [[ -x $BK_LAUNCHER ]] || bk_die "Buckler's locked-down install is not here ($BK_DATA_HOME); run install --system first"
  NODE=$(sed -n 's/^exec '"'"'\([^'"'"']*\)'"'"'.*/\1/p' "$BK_LAUNCHER" | head -n 1)
  bk_require_system_node "$NODE"
  bk_tmpdir
  bk_lock
  local -a wired=()
  local rec
  while IFS= read -r rec; do [[ -z $rec ]] || wired+=("${rec%% *}"); done < <(bk_state_get syshook)
  bk_system_compile ${wired[@]+"${wired[@]}"}
}

cmd_install_system() {
  local mode=$1 from= online=0 node_given= recompile=0
  shift
  while (($#)); do
    case $1 in
      --system) ;;
      --from) [[ $# -ge 2 ]] || bk_die "--from needs a tarball path"; from=$2; shift ;;
      --from=*) from=${1#--from=} ;;
      --from-registry | --from-registry=*) bk_die "--from-registry: Buckler is not published on the npm registry (a package named buckler there is not this project); install from a checkout or with --from TARBALL, an npm pack .tgz (docs/install.md)" ;;
      --online) online=1 ;;
      --node) [[ $# -ge 2 ]] || bk_die "--node needs a path"; node_given=$2; shift ;;
      --node=*) node_given=${1#--node=} ;;
      --recompile) [[ $mode == update ]] || bk_die "--recompile goes with update --system"; recompile=1 ;;
      *) bk_die "$mode --system: unknown option '$1' (see docs/install.md)" ;;
    esac
    shift
  done
  bk_require_root "$mode"
  [[ $(uname -s) == Linux ]] || bk_die "$mode --system supports Linux only"
  umask 022
  bk_system_paths
  if ((recompile)); then bk_system_recompile; return; fi
  bk_require_system_node "$node_given"
  bk_tmpdir
  mkdir -p "$BK_TMP/warm"
  bk_lock
  chown 0:0 "$BK_DATA_HOME"
  chmod 755 "$BK_DATA_HOME"

  bk_get_tarball "$from"
  mkdir -p "$BK_TMP/x"
  tar -xzf "$BK_TARBALL" -C "$BK_TMP/x" || bk_die "$BK_TARBALL is not a readable .tgz"
  local pkg="$BK_TMP/x/package" name version
  [[ -f $pkg/package.json ]] || bk_die "$BK_TARBALL has no package/package.json"
  name=$("$NODE" -p 'require(process.argv[1]).name' "$pkg/package.json")
  version=$("$NODE" -p 'require(process.argv[1]).version' "$pkg/package.json")
  [[ $name == buckler ]] || bk_die "$BK_TARBALL holds package '$name', not buckler"
  [[ $version =~ ^[0-9A-Za-z][0-9A-Za-z.+-]*$ ]] || bk_die "$BK_TARBALL has an unusable version '$version'"
  mkdir -p "$BK_VERSIONS_DIR"
  local stage="$BK_VERSIONS_DIR/.staging-$version-$$" target="$BK_VERSIONS_DIR/$version"
  rm -rf "$stage"
  mv "$pkg" "$stage"
  bk_install_deps "$stage" "$online"
  # Root's, and only root can change it: code, packs, dependencies.
  chown -R 0:0 "$stage"
  chmod -R go-w,a+rX "$stage"
  local said
  said=$(env -i PATH=/usr/bin:/bin "$NODE" "$stage/dist/buckler.cjs" --version 2>&1) || bk_die "the new bundle does not start: $said"
  [[ ! -e $target ]] || mv "$target" "$BK_VERSIONS_DIR/.old-$version-$$"
  mv "$stage" "$target"
  rm -rf "$BK_VERSIONS_DIR/.old-$version-$$"
  bk_point_current "$version"
  bk_prune_versions "$version"
  bk_say "installed buckler $version in $target (reports $said); $BK_CURRENT -> versions/$version"

  # The launcher, for `sudo buckler allow` and the person's own `buckler` commands.
  mkdir -p "$BK_BIN_DIR"
  {
    printf '#!/bin/sh\n# buckler %s (locked-down install)\n' "$BK_LAUNCHER_MARK"
    printf 'exec %s %s "$@"\n' "$(bk_sh_quote "$NODE")" "$(bk_sh_quote "$BK_CURRENT/dist/buckler.cjs")"
  } >"$BK_LAUNCHER.tmp.$$"
  chmod 755 "$BK_LAUNCHER.tmp.$$"
  mv -f "$BK_LAUNCHER.tmp.$$" "$BK_LAUNCHER"

  # The system config: written once, never overwritten (the administrator's from then on).
  if [[ ! -d $BK_SYSTEM_CONFIG ]]; then mkdir -p "$BK_SYSTEM_CONFIG"; bk_state_add syscreated "$BK_SYSTEM_CONFIG"; fi
  mkdir -p "$BK_RULES_DIR" "$BK_BUNDLES_DIR"
  if [[ ! -f $BK_CONFIG_FILE ]]; then
    bk_system_config_template >"$BK_CONFIG_FILE"
    bk_state_set sysconfig "$(bk_digest sha256 "$BK_CONFIG_FILE")"
    bk_say "wrote $BK_CONFIG_FILE (edit it to set the tier, packs and approvals)"
  fi
  chown -R 0:0 "$BK_SYSTEM_CONFIG"
  chmod -R go-w,a+rX "$BK_SYSTEM_CONFIG"
  if [[ ! -d $BK_SYSTEM_STATE ]]; then mkdir -p "$BK_SYSTEM_STATE"; bk_state_add syscreated "$BK_SYSTEM_STATE"; fi
  chown 0:0 "$BK_SYSTEM_STATE"
  chmod 755 "$BK_SYSTEM_STATE"

  # Wiring, every harness with a system settings file.
  local h file status=0
  local -a wired=() unprotected=()
  for h in "${BK_HARNESSES[@]}"; do
    file=$(bk_system_settings_file "$h")
    if [[ -z $file ]]; then unprotected+=("$h"); continue; fi
    if bk_system_wire "$h" "$file"; then wired+=("$h"); else status=1; fi
  done

  bk_system_compile ${wired[@]+"${wired[@]}"}
  bk_say "protects: ${wired[*]-none}; not protected by this mode (no system settings file Buckler can rely on): ${unprotected[*]-none}"
  bk_say "people run: $BK_LAUNCHER (add $BK_BIN_DIR to PATH); grants: sudo $BK_LAUNCHER allow COMMAND"
  return "$status"
}

cmd_uninstall_system() {
  local a
  for a in "$@"; do
    case $a in
      --system) ;;
      *) bk_die "uninstall --system: unknown option '$a' (see docs/install.md)" ;;
    esac
  done
  bk_require_root uninstall
  bk_system_paths
  [[ -d $BK_DATA_HOME ]] || { bk_say "Buckler's locked-down install is not here ($BK_DATA_HOME); nothing to remove"; return 0; }
  NODE=$(sed -n 's/^exec '"'"'\([^'"'"']*\)'"'"'.*/\1/p' "$BK_LAUNCHER" 2>/dev/null | head -n 1)
  [[ -n $NODE && -x $NODE ]] || bk_require_node
  bk_tmpdir
  bk_lock
  local rec h how file failed=0
  while IFS= read -r rec; do
    [[ -n $rec ]] || continue
    h=${rec%% *}; rec=${rec#* }; how=${rec%% *}; file=${rec#* }
    bk_system_unwire "$h" "$how" "$file" || failed=1
  done < <(bk_state_get syshook)
  ((!failed)) || bk_die "stopped before removing anything else, so you can fix the above and rerun"
  # The system config: removed only when it is still the one install wrote.
  local written
  written=$(bk_state_get sysconfig | tail -n 1)
  if [[ -f $BK_CONFIG_FILE && -n $written && $(bk_digest sha256 "$BK_CONFIG_FILE") == "$written" ]]; then
    rm -f "$BK_CONFIG_FILE"
  elif [[ -f $BK_CONFIG_FILE ]]; then
    bk_say "kept $BK_CONFIG_FILE (changed since install)"
  fi
  rmdir "$BK_RULES_DIR" "$BK_BUNDLES_DIR" 2>/dev/null || true
  rm -rf "$BK_SYSTEM_STATE"
  bk_say "removed the approvals in $BK_SYSTEM_STATE"
  local created d
  created=$(bk_state_get syscreated)
  bk_unlock
  rm -rf "$BK_DATA_HOME"
  bk_say "removed $BK_DATA_HOME"
  while IFS= read -r d; do
    [[ -z $d ]] || rmdir "$d" 2>/dev/null || true
  done < <(printf '%s\n' "$created" | awk '{ a[NR] = $0 } END { for (i = NR; i > 0; i--) print a[i] }')
  bk_say "Buckler's locked-down install is uninstalled"
}

# ------------------------------------------------------------------------------------------

bk_usage() {
  sed -n '4,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

bk_main() {
  trap bk_cleanup EXIT
  local cmd=${1:-}
  [[ $# -eq 0 ]] || shift
  case $cmd in
    install | update) if bk_has_system_flag "$@"; then cmd_install_system "$cmd" "$@"; else cmd_install "$cmd" "$@"; fi ;;
    uninstall) if bk_has_system_flag "$@"; then cmd_uninstall_system "$@"; else cmd_uninstall "$@"; fi ;;
    paths) if bk_has_system_flag "$@"; then cmd_paths_system "$@"; else cmd_paths "$@"; fi ;;
    -h | --help | help) bk_usage ;;
    '') bk_usage >&2; exit 2 ;;
    *) printf 'buckler setup: unknown command %s\n' "$cmd" >&2; bk_usage >&2; exit 2 ;;
  esac
}

# Parsed whole before it runs, so replacing this file mid-run (update, uninstall) is harmless.
# When sourced (the parity test does, to run many environments in one process) it only defines.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  bk_main "$@"
  exit
fi
