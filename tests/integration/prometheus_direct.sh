#!/usr/bin/env bash
# --prometheus URL: trainctl queries that Prometheus directly (here a stand-in written in
# Python that answers the HTTP API's envelope), with $TRAINCTL_PROMETHEUS_TOKEN as bearer
# token, instead of looking for one in the cluster; the token never appears in the output.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
command -v python3 >/dev/null || skip_or_fail "python3 not found"

start_kubesim --default-outcome run-forever
OUT=$(tc submit pytorch --name=direct --gpus=1 --image=pytorch/pytorch:2.3 --wait --timeout=60s "python train.py" 2>&1) ||
  fail "submit: $OUT"

cat >"$WORK/prom.py" <<'PY'
import http.server, json, sys, urllib.parse
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        q = urllib.parse.parse_qs(url.query)
        ok = url.path == "/prom/api/v1/query" and self.headers.get("Authorization") == "Bearer s3cret-token" \
            and 'pod_name=~"direct-master-0"' in q.get("query", [""])[0]
        body = {"status": "success", "data": {"resultType": "vector", "result": [
            {"metric": {"__name__": "nvidia_gpu_duty_cycle", "pod_name": "direct-master-0", "namespace_name": "default",
                        "node_name": "gpu-a", "minor_number": "5"}, "value": [1700000000, "42.5"]}]}} if ok else \
            {"status": "error", "errorType": "bad_data", "error": "unexpected request " + self.path}
        data = json.dumps(body).encode()
        self.send_response(200 if ok else 400)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
PY
python3 "$WORK/prom.py" >"$WORK/prom.port" &
PROM_PID=$!
trap 'kill $PROM_PID 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 50); do [[ -s "$WORK/prom.port" ]] && break; sleep 0.1; done
PORT=$(cat "$WORK/prom.port")

OUT=$(TRAINCTL_PROMETHEUS_TOKEN=s3cret-token tc --prometheus "http://127.0.0.1:$PORT/prom/" --loglevel debug \
  top job direct 2>&1) || fail "top job --prometheus: $OUT"
grep -Eq '^direct-master-0 +Running +1 +[^ ]+ +5 +42\.5% +N/A +N/A$' <<<"$OUT" || fail "top job --prometheus: $OUT"
if grep -q "s3cret-token" <<<"$OUT"; then fail "the token appears in the output: $OUT"; fi
# $TRAINCTL_PROMETHEUS does the same; a wrong token is the stand-in's 400, said in one line.
OUT=$(TRAINCTL_PROMETHEUS="http://127.0.0.1:$PORT/prom" TRAINCTL_PROMETHEUS_TOKEN=wrong tc top job direct 2>&1) ||
  fail "top job with a refused query failed: $OUT"
expect_output "refused" "GPU metrics unavailable: http://127.0.0.1:$PORT/prom: "
echo "ok"
