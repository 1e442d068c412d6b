# Sourced by the integration tests that judge trainctl's GPU metrics with a real Prometheus
# (Debian's prometheus, installed by scripts/install-deps.sh): kubesim serves its nodes' GPU
# exporters (/kubesim/exporters/FAMILY/...) and forwards its Prometheus Service to this
# Prometheus, which scrapes them every second. Source kubesim_env.bash first.
#
#   start_real_prometheus FAMILY HONOR_LABELS [kubesim flags...]
#       starts kubesim (--speed 1: its clock is the real one, which Prometheus stamps samples
#       with; docs/kubesim.md "GPU exporters") with --prometheus-endpoint, then Prometheus with a
#       config written here: one job, targets from kubesim's HTTP service discovery for FAMILY
#       (dcgm, dcgm-before-3.1.6, arena), honor_labels HONOR_LABELS; waits until every target is up.
#   prom_query PROMQL   the answer of an instant query, through the API server's service proxy.

command -v prometheus >/dev/null || skip_or_fail "prometheus not found (scripts/install-deps.sh installs it)"
command -v curl >/dev/null || skip_or_fail "curl not found"
command -v python3 >/dev/null || skip_or_fail "python3 not found"

PROM_PID=""
stop_real_prometheus() {
  if [[ -n "$PROM_PID" ]]; then kill "$PROM_PID" 2>/dev/null || true; wait "$PROM_PID" 2>/dev/null || true; fi
  PROM_PID=""
}
trap 'stop_real_prometheus; cleanup' EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

PROXY=/api/v1/namespaces/monitoring/services/prometheus-server:9090/proxy/api/v1
prom_query() {
  kubectl --kubeconfig "$KCFG" get --raw "$PROXY/query?query=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1")"
}

start_real_prometheus() {
  local family=$1 honor=$2
  shift 2
  stop_real_prometheus
  PROM_PORT=$(free_port)
  KUBESIM_SPEED=1 start_kubesim --prometheus-endpoint "127.0.0.1:$PROM_PORT" "$@"
  local server token
  server=$(sed -n 's/^ *server: *//p' "$KCFG" | head -1)
  token=$(sed -n 's/^ *token: *//p' "$KCFG" | head -1)
  sed -n 's/^ *certificate-authority-data: *//p' "$KCFG" | head -1 | base64 -d >"$WORK/ca.pem"
  printf '%s' "$token" >"$WORK/token"
  chmod 600 "$WORK/token"
  cat >"$WORK/prometheus.yml" <<YAML
global: {scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: gpu-exporters
    honor_labels: $honor
    scheme: https
    tls_config: {ca_file: $WORK/ca.pem}
    authorization: {type: Bearer, credentials_file: $WORK/token}
    http_sd_configs:
      - url: $server/kubesim/exporters/$family/targets
        refresh_interval: 30s
        tls_config: {ca_file: $WORK/ca.pem}
        authorization: {type: Bearer, credentials_file: $WORK/token}
YAML
  rm -rf "$WORK/tsdb"
  prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
    --web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn >"$WORK/prometheus.log" 2>&1 &
  PROM_PID=$!
  local targets
  targets=$(curl -sS --cacert "$WORK/ca.pem" -H "Authorization: Bearer $token" \
    "$server/kubesim/exporters/$family/targets" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
  for _ in $(seq 300); do
    kill -0 "$PROM_PID" 2>/dev/null || fail "prometheus exited: $(cat "$WORK/prometheus.log")"
    local up
    up=$(curl -sf "http://127.0.0.1:$PROM_PORT/api/v1/query?query=sum(up)" 2>/dev/null |
      python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)' 2>/dev/null || echo 0)
    [[ "$up" == "$targets" ]] && return 0
    sleep 0.1
  done
  fail "prometheus did not scrape the $targets exporters of $family: $(cat "$WORK/prometheus.log")"
}
