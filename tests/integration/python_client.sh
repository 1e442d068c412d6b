#!/usr/bin/env bash
# The official Kubernetes Python client (Debian's python3-kubernetes), an independent client,
# reads everything kubesim serves for jobs of every kind: typed models, a watch, a log.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
# Debian's interpreter: the package is installed for it, not for another python3 on PATH.
PY=/usr/bin/python3
[[ -x "$PY" ]] && "$PY" -c "import kubernetes" 2>/dev/null || skip_or_fail "python3-kubernetes is not installed"
start_kubesim --default-outcome run-forever

OUT=$(tc submit pytorch --name=py-pt --workers=2 --image=pytorch/pytorch --wait --timeout=60s "python train.py" 2>&1) ||
  fail "pytorch: $OUT"
OUT=$(tc submit mpi --name=py-mpi --workers=1 --image=mpi --wait --timeout=60s "mpirun python train.py" 2>&1) ||
  fail "mpi: $OUT"
OUT=$(tc submit volcano --name=py-vc --image=busybox --task=worker:2 --wait --timeout=60s "sleep 1000" 2>&1) ||
  fail "volcano: $OUT"
OUT=$(tc submit pytorch --name=py-none --operator none --workers=2 --image=pytorch/pytorch --tensorboard \
  --wait --timeout=60s "python train.py" 2>&1) || fail "operator-free: $OUT"

"$PY" "$(dirname "$0")/python_client.py" "$KCFG" default || fail "the Python client refused what kubesim serves"
echo "ok"
