#!/usr/bin/env bash
# Writes the small seed files the benchmark adds to kubesim's generated clusters.
#   bench/seeds.sh get DIR WORKERS  -> DIR/get-seed.json: PyTorchJob "bench-get" in namespace
#                                      "default" with 1 master + WORKERS workers, all Running
#   bench/seeds.sh logs DIR LINES   -> DIR/logs-seed.json: one GPU node and PyTorchJob "bench-log"
#                                      (master only) whose container writes LINES log lines and
#                                      then succeeds (needs kubesim's controllers)
set -euo pipefail

mode=$1 dir=$2 n=$3
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
image=registry.cn-beijing.aliyuncs.com/ai-samples/pytorch-with-tensorboard:1.5.1-cuda10.1-cudnn7-runtime
command='["sh","-c","python /root/code/mnist-pytorch/mnist.py --epochs 10"]'

node() {  # name ip
  printf '{"name":"%s","ip":"%s","gpus":8,"cpu":"96","memory":"768Gi"}' "$1" "$2"
}

pytorchjob() {  # name workers annotations-json
  local workers=""
  if [ "$2" -gt 0 ]; then
    workers=$(printf ',"Worker":{"replicas":%d,"restartPolicy":"OnFailure","template":{"spec":{"containers":[{"name":"pytorch","image":"%s","command":%s,"resources":{"limits":{"nvidia.com/gpu":1}}}]}}}' \
      "$2" "$image" "$command")
  fi
  printf '{"apiVersion":"kubeflow.org/v1","kind":"PyTorchJob","metadata":{"name":"%s","namespace":"default","labels":{"release":"%s","app":"pytorchjob","createdBy":"PyTorchJob"},"annotations":%s,"creationTimestamp":"%s"},' \
    "$1" "$1" "$3" "$now"
  printf '"spec":{"runPolicy":{"cleanPodPolicy":"None"},"pytorchReplicaSpecs":{"Master":{"replicas":1,"restartPolicy":"OnFailure","template":{"spec":{"containers":[{"name":"pytorch","image":"%s","command":%s,"resources":{"limits":{"nvidia.com/gpu":1}}}]}}}%s}}}' \
    "$image" "$command" "$workers"
}

pod() {  # job role index node ip pod-ip
  local labels
  labels=$(printf '{"training.kubeflow.org/operator-name":"pytorchjob-controller","training.kubeflow.org/job-name":"%s","training.kubeflow.org/replica-type":"%s","training.kubeflow.org/replica-index":"%s"%s}' \
    "$1" "$2" "$3" "$([ "$2" = master ] && echo ',"training.kubeflow.org/job-role":"master"')")
  printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s-%s-%s","namespace":"default","labels":%s,"creationTimestamp":"%s","annotations":{"kubesim.trainctl.io/outcome":"run-forever"}},' \
    "$1" "$2" "$3" "$labels" "$now"
  printf '"spec":{"nodeName":"%s","restartPolicy":"OnFailure","containers":[{"name":"pytorch","image":"%s","command":%s,"resources":{"limits":{"nvidia.com/gpu":1}}}]},' \
    "$4" "$image" "$command"
  printf '"status":{"phase":"Running","hostIP":"%s","podIP":"%s","startTime":"%s","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"%s"}],"containerStatuses":[{"name":"pytorch","image":"%s","ready":true,"restartCount":0,"state":{"running":{"startedAt":"%s"}}}]}}' \
    "$5" "$6" "$now" "$now" "$image" "$now"
}

case "$mode" in
  get)
    out=$dir/get-seed.json
    {
      printf '{"namespaces":["default"],"nodes":[%s,%s],"objects":[' \
        "$(node bench-node-a 10.250.0.2)" "$(node bench-node-b 10.250.0.3)"
      pytorchjob bench-get "$n" '{}'
      printf ','
      pod bench-get master 0 bench-node-a 10.250.0.2 10.251.0.1
      for ((i = 0; i < n; i++)); do
        printf ','
        pod bench-get worker "$i" "bench-node-$([ $((i % 2)) = 0 ] && echo a || echo b)" 10.250.0.2 "10.251.$((i / 200)).$((i % 200 + 2))"
      done
      printf ']}\n'
    } >"$out"
    ;;
  logs)
    out=$dir/logs-seed.json
    {
      printf '{"namespaces":["default"],"nodes":[%s],"objects":[' "$(node bench-node-a 10.250.0.2)"
      pytorchjob bench-log 0 "{\"kubesim.trainctl.io/outcome\":\"succeed\",\"kubesim.trainctl.io/duration\":\"${n}s\"}"
      printf ']}\n'
    } >"$out"
    ;;
  *)
    echo "usage: $0 get|logs DIR N" >&2
    exit 2
    ;;
esac
echo "$out"
