#!/usr/bin/env bash
# Drives kubesim with every real kubectl found on the machine (kubectl and kubectl.1.27 ...
# kubectl.1.33 beside it): get, apply, logs (-f), watch, delete, error Status bodies and both
# authentication methods. Exit 77 (skipped) when kubectl or kubesim is missing.
set -u
source "$(dirname "$0")/skip.bash"
source "$(dirname "$0")/kubesim_start.bash"

KUBECTL_PATH=$(command -v kubectl || true)
if [ -z "$KUBECTL_PATH" ]; then skip_or_fail "kubectl not found"; fi
if [ -z "${KUBESIM:-}" ] || [ ! -x "$KUBESIM" ]; then skip_or_fail "\$KUBESIM is not set"; fi
KDIR=$(dirname "$(readlink -f "$KUBECTL_PATH")")
VERSIONS=()
for k in kubectl kubectl.1.27 kubectl.1.28 kubectl.1.29 kubectl.1.30 kubectl.1.31 kubectl.1.32 kubectl.1.33; do
  [ -x "$KDIR/$k" ] && VERSIONS+=("$k")
done

SCHEMAS=$(schema_dir)

WORK=$(mktemp -d)
KC="$WORK/kubeconfig"
export KUBECONFIG="$KC"
FAILS=0
declare -A RESULTS

cleanup() {
  [ -n "${SIM_PID:-}" ] && kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() { echo "FAIL [$1] $2"; FAILS=$((FAILS + 1)); RESULTS[$1]="${RESULTS[$1]:-} FAIL:$3"; }
pass() { RESULTS[$1]="${RESULTS[$1]:-} $2"; }
# expect KUBECTL CHECK-NAME EXPECTED-SUBSTRING OUTPUT (whitespace runs are squeezed first)
expect() {
  local squeezed
  squeezed=$(printf '%s' "$4" | tr -s ' \t' ' ')
  if [[ "$squeezed" == *"$3"* ]]; then pass "$1" "$2"; else fail "$1" "$2: expected '$3', got: $(printf '%s' "$4" | head -c 400)" "$2"; fi
}

cat > "$WORK/seed.yaml" <<'EOF'
nodes:
  - {name: gpu-node-1, ip: 192.168.0.31, gpus: 8}
  - {name: gpu-node-2, ip: 192.168.0.32, gpus: 8}
  - {name: cpu-node-1, ip: 192.168.0.20, gpus: 0, roles: [control-plane]}
namespaces: [team-a]
EOF

ARGS=(--port 0 --kubeconfig-out "$KC" --seed "$WORK/seed.yaml" --speed 2)
[ -n "$SCHEMAS" ] && ARGS+=(--schemas "$SCHEMAS")
"$KUBESIM" "${ARGS[@]}" > "$WORK/kubesim.log" 2>&1 &
SIM_PID=$!
if ! wait_for_kubesim "$WORK/kubesim.log" "$SIM_PID"; then echo "kubesim did not start:"; cat "$WORK/kubesim.log"; exit 1; fi
if [ "$(stat -c %a "$KC")" != "600" ]; then fail all kubeconfig-mode "kubeconfig is not mode 0600" kubeconfig; fi

manifests() {  # $1 = index
  cat > "$WORK/pt-$1.yaml" <<EOF
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: pt-$1
  annotations:
    kubesim.trainctl.io/duration: 6s
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      restartPolicy: OnFailure
      template:
        spec:
          containers:
          - name: pytorch
            image: pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime
            command: ["python", "/workspace/train.py", "--epochs", "1"]
            resources:
              limits:
                nvidia.com/gpu: 1
EOF
  cat > "$WORK/mpi-$1.yaml" <<EOF
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata:
  name: mpi-$1
  annotations:
    kubesim.trainctl.io/duration: 600s  # still running when its worker's log is read
spec:
  slotsPerWorker: 1
  runPolicy:
    cleanPodPolicy: Running
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template:
        spec:
          containers:
          - name: launcher
            image: mpioperator/mpi-pi:openmpi
            command: ["mpirun", "-n", "2", "/home/mpiuser/pi"]
    Worker:
      replicas: 2
      template:
        spec:
          containers:
          - name: worker
            image: mpioperator/mpi-pi:openmpi
EOF
}

# ---- per version: get nodes, apply (created/unchanged/configured), get pytorchjobs ----
i=0
for k in "${VERSIONS[@]}"; do
  K="$KDIR/$k"
  manifests $i
  out=$("$K" get nodes 2>&1); expect "$k" "get-nodes" "NAME STATUS ROLES AGE VERSION" "$out"
  expect "$k" "get-nodes-row" "cpu-node-1 Ready control-plane" "$out"
  out=$("$K" apply -f "$WORK/pt-$i.yaml" 2>&1); expect "$k" "apply-pytorchjob" "pytorchjob.kubeflow.org/pt-$i created" "$out"
  out=$("$K" apply -f "$WORK/pt-$i.yaml" 2>&1); expect "$k" "apply-unchanged" "pytorchjob.kubeflow.org/pt-$i unchanged" "$out"
  sed -i 's#kubesim.trainctl.io/duration: 6s#kubesim.trainctl.io/duration: 6s\n    team: vision#' "$WORK/pt-$i.yaml"
  out=$("$K" apply -f "$WORK/pt-$i.yaml" 2>&1); expect "$k" "apply-configured" "pytorchjob.kubeflow.org/pt-$i configured" "$out"
  out=$("$K" apply -f "$WORK/mpi-$i.yaml" 2>&1); expect "$k" "apply-mpijob" "mpijob.kubeflow.org/mpi-$i created" "$out"
  out=$("$K" get pytorchjobs 2>&1); expect "$k" "get-pytorchjobs" "pt-$i " "$out"
  expect "$k" "get-pytorchjobs-header" "NAME STATE AGE" "$out"
  out=$("$K" get pod nope 2>&1); expect "$k" "notfound" 'Error from server (NotFound): pods "nope" not found' "$out"
  out=$("$K" create -f "$WORK/mpi-$i.yaml" 2>&1); expect "$k" "alreadyexists" "mpijobs.kubeflow.org \"mpi-$i\" already exists" "$out"
  out=$("$K" run Bad_Name --image=busybox --restart=Never 2>&1); expect "$k" "invalid-name" 'Pod "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"' "$out"
  out=$("$K" --context kubesim-cert get ns team-a 2>&1); expect "$k" "client-cert-auth" "team-a Active" "$out"
  out=$("$K" --token not-the-token get ns 2>&1); expect "$k" "unauthorized" "Unauthorized" "$out"
  if [ -n "$SCHEMAS" ]; then
    sed "s/name: pt-$i/name: strict-$i/; s/      replicas: 1/      replicas: 1\n      bogusField: 1/" "$WORK/pt-$i.yaml" > "$WORK/strict-$i.yaml"
    out=$("$K" apply -f "$WORK/strict-$i.yaml" 2>&1)
    expect "$k" "strict-unknown-field" 'strict decoding error: unknown field "spec.pytorchReplicaSpecs.Master.bogusField"' "$out"
  fi
  i=$((i + 1))
done

# ---- watch: every version watches configmaps while one is created and deleted ----
# Nine kubectl processes start at once on a loaded machine: each watch gets the configmap's
# ADDED (from its initial list if it started late) before the delete, and the test waits for
# every event instead of sleeping a fixed time.
i=0
watchers=()
for k in "${VERSIONS[@]}"; do
  timeout 60 "$KDIR/$k" get configmaps --watch --output-watch-events > "$WORK/watch-$i.txt" 2>&1 &
  watchers+=($!)
  i=$((i + 1))
done
wait_for_all() {  # wait_for_all PATTERN: every watch file holds PATTERN (at most 30 s)
  for _ in $(seq 1 300); do
    local all=1 j
    # kubectl aligns its columns: compare with runs of blanks squeezed, as expect does.
    for j in "${!VERSIONS[@]}"; do tr -s ' \t' ' ' <"$WORK/watch-$j.txt" | grep -qF -- "$1" || all=0; done
    [ "$all" = 1 ] && return 0
    sleep 0.1
  done
}
sleep 1
"$KDIR/kubectl" create configmap watched --from-literal=a=b > /dev/null
wait_for_all "ADDED watched 1"
"$KDIR/kubectl" delete configmap watched > /dev/null
wait_for_all "DELETED watched 1"
for pid in "${watchers[@]}"; do kill "$pid" 2>/dev/null || true; done
wait "${watchers[@]}" 2>/dev/null || true
i=0
for k in "${VERSIONS[@]}"; do
  out=$(cat "$WORK/watch-$i.txt")
  expect "$k" "watch-added" "ADDED watched 1" "$out"
  expect "$k" "watch-deleted" "DELETED watched 1" "$out"
  i=$((i + 1))
done

# ---- pods: wait for the masters to run and the MPI workers to exist (a loaded machine or a
# sanitizer build can take many seconds), then get pods -A, logs, logs -f ----
for _ in $(seq 300); do
  running=$("$KDIR/kubectl" get pods -l training.kubeflow.org/job-role=master --no-headers 2>/dev/null | grep -c -E "Running|Completed")
  workers=$("$KDIR/kubectl" get pods -l training.kubeflow.org/job-role=worker --no-headers 2>/dev/null | grep -c "^mpi-")
  [ "$running" -ge "${#VERSIONS[@]}" ] && [ "$workers" -ge "${#VERSIONS[@]}" ] && break
  sleep 0.2
done
i=0
for k in "${VERSIONS[@]}"; do
  K="$KDIR/$k"
  out=$("$K" get pods -A 2>&1); expect "$k" "get-pods-A" "NAMESPACE NAME READY STATUS RESTARTS AGE" "$out"
  expect "$k" "get-pods-A-row" "default pt-$i-master-0 " "$out"
  out=$("$K" logs "pt-$i-master-0" --tail=1 2>&1)
  if [ -n "$out" ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ]; then pass "$k" logs-tail; else fail "$k" "logs --tail=1: got '$out'" logs-tail; fi
  out=$("$K" logs "pt-$i-master-0" --timestamps --tail=1 2>&1)
  # The line starts with an RFC 3339 time within ten minutes of now (a run may cross midnight).
  stamp=${out%% *}
  if [[ "$stamp" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$ ]] \
     && skew=$(( $(date -u +%s) - $(date -u -d "$stamp" +%s) )) && [ "${skew#-}" -le 600 ]; then
    pass "$k" logs-timestamps
  else
    fail "$k" "logs-timestamps: expected an RFC 3339 time near now, got: $(printf '%s' "$out" | head -c 200)" logs-timestamps
  fi
  out=$("$K" logs "mpi-$i-worker-0" -c nope 2>&1); expect "$k" "logs-bad-container" "container nope is not valid for pod mpi-$i-worker-0" "$out"
  timeout 30 "$K" logs -f "pt-$i-master-0" > "$WORK/follow-$i.txt" 2>&1 &
  eval "FOLLOW_$i=$!"
  i=$((i + 1))
done
i=0
for k in "${VERSIONS[@]}"; do
  pid_var="FOLLOW_$i"
  if wait "${!pid_var}"; then pass "$k" logs-follow-ends; else fail "$k" "logs -f did not end when the container finished" logs-follow-ends; fi
  lines=$(wc -l < "$WORK/follow-$i.txt")
  full=$("$KDIR/kubectl" logs "pt-$i-master-0" | wc -l)
  if [ "$lines" -ge 1 ] && [ "$lines" = "$full" ]; then pass "$k" logs-follow; else fail "$k" "logs -f gave $lines lines, logs gives $full" logs-follow; fi
  i=$((i + 1))
done

# ---- delete with cascade ----
i=0
for k in "${VERSIONS[@]}"; do
  K="$KDIR/$k"
  out=$("$K" delete pytorchjob "pt-$i" 2>&1); expect "$k" "delete" "pytorchjob.kubeflow.org \"pt-$i\" deleted" "$out"
  # The garbage collector deletes the pods after the job, and a pod still running stops
  # within its grace period: poll, with a bound, as a client of a real cluster must.
  for _ in $(seq 300); do
    out=$("$K" get pod "pt-$i-master-0" 2>&1)
    [[ "$out" == *"not found"* ]] && break
    sleep 0.1
  done
  expect "$k" "delete-cascade" "pods \"pt-$i-master-0\" not found" "$out"
  out=$("$K" delete -f "$WORK/mpi-$i.yaml" 2>&1); expect "$k" "delete-f" "mpijob.kubeflow.org \"mpi-$i\" deleted" "$out"
  i=$((i + 1))
done

# ---- Status bodies on the wire ----
SERVER=$(grep 'server:' "$KC" | awk '{print $2}')
TOKEN=$(grep 'token:' "$KC" | awk '{print $2}')
CA="$WORK/ca.crt"
grep 'certificate-authority-data:' "$KC" | awk '{print $2}' | base64 -d > "$CA"
body=$(curl -s --cacert "$CA" "$SERVER/api/v1/pods")
expect wire "401" '"code":401' "$body"; expect wire "401-reason" '"reason":"Unauthorized"' "$body"
body=$(curl -s --cacert "$CA" -H "Authorization: Bearer $TOKEN" "$SERVER/apis/kubeflow.org/v1/namespaces/default/pytorchjobs/none")
expect wire "404" '"message":"pytorchjobs.kubeflow.org \"none\" not found"' "$body"
body=$(curl -s --cacert "$CA" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -X POST \
  -d '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"}}' "$SERVER/api/v1/namespaces/default/configmaps")
body=$(curl -s --cacert "$CA" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -X POST \
  -d '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"}}' "$SERVER/api/v1/namespaces/default/configmaps")
expect wire "409" '"code":409' "$body"; expect wire "409-reason" '"reason":"AlreadyExists"' "$body"
body=$(curl -s --cacert "$CA" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -X POST \
  -d '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"UPPER"}}' "$SERVER/api/v1/namespaces/default/configmaps")
expect wire "422" '"code":422' "$body"; expect wire "422-cause" '"field":"metadata.name"' "$body"

echo
echo "Results per kubectl:"
for k in "${VERSIONS[@]}" wire; do echo "  $k:${RESULTS[$k]:-}"; done
if [ "$FAILS" -gt 0 ]; then echo "$FAILS check(s) failed"; echo "--- kubesim log"; tail -20 "$WORK/kubesim.log"; exit 1; fi
echo "all checks passed"
