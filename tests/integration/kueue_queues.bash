# Sourced by the Kueue integration tests (after kubesim_env.bash, with KUBECTL and KCFG set).

# kueue_queues GPUS [STRATEGY]: through the real kubectl, the ResourceFlavor default-flavor,
# the ClusterQueue cluster-a with a nominal quota of GPUS nvidia.com/gpu (queueingStrategy
# STRATEGY, Kueue's default BestEffortFIFO when not given) and the LocalQueue team-a of
# namespace default pointing to it, written in kueue.x-k8s.io/v1beta1.
kueue_queues() {
  "$KUBECTL" --kubeconfig "$KCFG" apply -f - >/dev/null <<YAML || fail "kubectl apply of the Kueue queues"
apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: default-flavor}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: cluster-a}
spec:
  namespaceSelector: {}
  queueingStrategy: ${2:-BestEffortFIFO}
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: default-flavor
      resources:
      - {name: nvidia.com/gpu, nominalQuota: $1}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: team-a, namespace: default}
spec: {clusterQueue: cluster-a}
YAML
}

# until_ok SECONDS CMD...: retries CMD every 0.2 s for SECONDS.
until_ok() {
  local end=$((SECONDS + $1)); shift
  until "$@" >/dev/null 2>&1; do (( SECONDS < end )) || return 1; sleep 0.2; done
}
