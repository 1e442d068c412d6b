# Shared by bench/arena.sh and bench/label_select.sh (sourced with the script's arguments, before
# common.bash): --gen GENERATE (kubesim's --generate; default $gen when the script sets it,
# else 5,000 nodes, 100,000 jobs, 100,000 pods), --runs N (3), --build-dir DIR, --keep; -h prints the script's header.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
gen=${gen:-nodes=5000,jobs=100000,pods=100000} build="$src/build-bench" keep=0 runs=3
while [ $# -gt 0 ]; do
  case "$1" in
    --gen) gen=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench: unknown argument $1" >&2; exit 2 ;;
  esac
done
