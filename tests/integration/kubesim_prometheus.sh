#!/usr/bin/env bash
# kubesim --prometheus dcgm: a GPU job's utilisation and memory are read back by kubectl through
# the API server's service proxy to the simulated Prometheus (instant and range queries), and a
# query Prometheus cannot parse answers its bad_data error.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v kubectl >/dev/null || skip_or_fail "kubectl not found"
command -v python3 >/dev/null || skip_or_fail "python3 not found"
command -v curl >/dev/null || skip_or_fail "curl not found"
start_kubesim --prometheus dcgm --default-outcome run-forever
k() { kubectl --kubeconfig "$KCFG" "$@"; }
PROXY=/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy/api/v1
urlencode() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }

OUT=$(k get services -A -l kubernetes.io/service-name=prometheus-server -o name)
[[ "$OUT" == "service/prometheus-server" ]] || fail "Service monitoring/prometheus-server: $OUT"

k apply -f - >/dev/null <<'YAML' || fail "kubectl apply"
apiVersion: batch/v1
kind: Job
metadata:
  name: gpu-job
  namespace: default
  annotations: {kubesim.trainctl.io/gpu-memory: 6Gi}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: trainer
          image: registry.example/train:1
          command: [python, train.py]
          resources: {limits: {nvidia.com/gpu: 2}}
YAML
k wait --for=condition=Ready pod -l job-name=gpu-job --timeout=60s >/dev/null || fail "the job's pod is not Ready"
POD=$(k get pod -l job-name=gpu-job -o jsonpath='{.items[0].metadata.name}')

Q='{__name__=~"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED", namespace="default", pod=~"gpu-job-.*"}'
OUT=$(k get --raw "$PROXY/query?query=$(urlencode "$Q")") || fail "instant query: $OUT"
NOW=$(python3 - "$OUT" "$POD" <<'PY'
import json, sys
answer, pod = json.loads(sys.argv[1]), sys.argv[2]
assert answer["status"] == "success", answer
result = answer["data"]["result"]
assert answer["data"]["resultType"] == "vector", answer
assert len(result) == 4, result  # two GPUs, two metrics
for s in result:
    m, (t, v) = s["metric"], s["value"]
    assert m["pod"] == pod and m["container"] == "trainer" and m["gpu"] in ("0", "1"), m
    assert m["UUID"].startswith("GPU-") and m["Hostname"], m
    if m["__name__"] == "DCGM_FI_DEV_GPU_UTIL":
        assert 70 <= float(v) <= 99, s
    else:
        assert v == "6144", s
print(int(float(result[0]["value"][0])))
PY
) || fail "instant query answer: $OUT"

Q='max_over_time(DCGM_FI_DEV_GPU_UTIL{pod="'"$POD"'"}[5m])'
OUT=$(k get --raw "$PROXY/query_range?query=$(urlencode "$Q")&start=$((NOW - 60))&end=$NOW&step=15s") ||
  fail "range query: $OUT"
python3 - "$OUT" <<'PY' || fail "range query answer: $OUT"
import json, sys
answer = json.loads(sys.argv[1])
assert answer["status"] == "success" and answer["data"]["resultType"] == "matrix", answer
result = answer["data"]["result"]
assert len(result) == 2 and "__name__" not in result[0]["metric"], result
assert all(70 <= float(v) <= 99 for s in result for _, v in s["values"]), result
PY

# A bad query: kubectl sees 400 BadRequest (it prints no body that is not a Status), curl
# sees Prometheus' error envelope. curl also POSTs a form as client_golang does.
set +e
OUT=$(k get --raw "$PROXY/query?query=$(urlencode 'DCGM_FI_DEV_GPU_UTIL{pod=')" 2>&1)
rc=$?
set -e
[[ $rc -ne 0 ]] && grep -q BadRequest <<<"$OUT" || fail "a bad query with kubectl: $OUT"
server=$(sed -n 's/^ *server: *//p' "$KCFG" | head -1)
token=$(sed -n 's/^ *token: *//p' "$KCFG" | head -1)
sed -n 's/^ *certificate-authority-data: *//p' "$KCFG" | head -1 | base64 -d >"$WORK/ca.pem"
api() { curl -sS --cacert "$WORK/ca.pem" -H "Authorization: Bearer $token" "$@"; }
OUT=$(api -w ' %{http_code}' "$server$PROXY/query?query=$(urlencode 'DCGM_FI_DEV_GPU_UTIL{pod=')")
[[ "$OUT" == '{"error":"invalid parameter \"query\": 1:'*'"errorType":"bad_data","status":"error"} 400' ]] ||
  fail "a bad query with curl: $OUT"
OUT=$(api --data-urlencode "query=DCGM_FI_DEV_FB_FREE{pod=\"$POD\"}" "$server$PROXY/query")
grep -q '"value":\[[0-9.]*,"10240"\]' <<<"$OUT" || fail "POST query: $OUT"

set +e
OUT=$(k get --raw "/api/v1/namespaces/default/services/nope:80/proxy/api/v1/query?query=up" 2>&1)
set -e
grep -q 'services "nope" not found' <<<"$OUT" || fail "unknown service: $OUT"
echo "ok"
