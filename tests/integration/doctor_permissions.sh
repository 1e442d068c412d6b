#!/usr/bin/env bash
# trainctl doctor for a user whom RBAC lets do some things only (kubesim --token-auth-file,
# Roles and bindings written with the real kubectl). Every verb doctor reports is the answer
# `kubectl auth can-i` gets, and the requests themselves get the same answer; a user who may
# not create PyTorchJobs makes doctor exit 9 and say why. Also: a cluster that refuses the job
# submit renders (a CRD without a field trainctl sends, under fieldValidation=Strict), and one
# without the training-operator or the Kubernetes 1.22 Job hostnames.
set -euo pipefail
source "$(dirname "$0")/kubesim_env.bash"
source "$(dirname "$0")/doctor.bash"
KUBECTL=$(command -v kubectl || true)
[[ -n "$KUBECTL" ]] || skip_or_fail "kubectl not found"
k() { "$KUBECTL" --kubeconfig "$KCFG" "$@"; }

printf '%s\n' 'alice-token,alice,1001,"ml"' >"$WORK/tokens.csv"
start_kubesim --token-auth-file "$WORK/tokens.csv" --prometheus dcgm
k apply -f - >/dev/null <<'YAML' || fail "kubectl apply of the roles"
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: trainer, namespace: default}
rules:
- {apiGroups: [kubeflow.org], resources: [pytorchjobs], verbs: [create, list, delete]}
- {apiGroups: [""], resources: [pods], verbs: [list]}
- {apiGroups: [""], resources: [pods/log], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: trainer, namespace: default}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: trainer}
subjects: [{kind: Group, name: ml}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: node-reader}
rules:
- {apiGroups: [""], resources: [nodes], verbs: [list]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: alice-nodes}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: node-reader}
subjects: [{kind: User, name: alice}]
YAML
user_kubeconfig alice-token "$WORK/alice.kubeconfig"
alice() { "$KUBECTL" --kubeconfig "$WORK/alice.kubeconfig" "$@"; }
DOCTOR_KUBECONFIG="$WORK/alice.kubeconfig"

doctor_json
[[ $DOCTOR_RC == 0 ]] || fail "alice may create PyTorchJobs, yet doctor exited $DOCTOR_RC: $DOCTOR_ERR"
expect_finding submit.pytorchjob ok "admits the PyTorchJob"
# Each verb of each permission finding, against kubectl auth can-i (as alice).
checked=0
while IFS='|' read -r name namespace verb allowed; do
  resource=${name% (all namespaces)}
  args=(auth can-i "$verb")
  if [[ $resource == */* ]]; then args+=("${resource%/*}" --subresource="${resource#*/}"); else args+=("$resource"); fi
  if [[ -n $namespace ]]; then args+=(-n "$namespace"); elif [[ $name == *"(all namespaces)" ]]; then args+=(-A); fi
  kubectl_says=$(alice "${args[@]}" 2>/dev/null || true)
  [[ $kubectl_says == yes && $allowed == true || $kubectl_says == no && $allowed == false ]] ||
    fail "doctor says $verb $name: $allowed; kubectl auth can-i ${args[*]} says $kubectl_says"
  checked=$((checked + 1))
done < <(jq -r '.findings[] | select(.section == "permissions") | . as $f | .details.verbs | to_entries[] |
                [$f.name, $f.details.namespace, .key, (.value | tostring)] | join("|")' <<<"$DOC")
((checked >= 20)) || fail "only $checked verbs checked: $DOC"
expect_finding perm.pytorchjobs.kubeflow.org ok "create, list, delete: allowed"
expect_finding perm.pods missing "list: allowed; watch: denied"
expect_finding perm.pods missing "kubectl auth can-i watch pods -n default answers the same"
expect_finding perm.nodes ok
expect_finding perm.services.all missing "finding Prometheus"
# The requests get what the reviews said.
alice get pods -n default >/dev/null || fail "alice cannot list pods"
OUT=$(alice create deployment x --image=busybox -n default --dry-run=server -o name 2>&1 || true)
expect_output "create deployment" 'deployments.apps is forbidden: User "alice" cannot create resource "deployments"'
# Where the Services cannot be listed, Prometheus is not known; nodes are readable.
expect_finding metrics.prometheus warning "services is forbidden"
expect_finding gpu.nvidia ok

# Without create on PyTorchJobs: not ready, exit 9.
k patch role trainer -n default --type=json \
  -p '[{"op": "replace", "path": "/rules/0/verbs", "value": ["list", "delete"]}]' >/dev/null
doctor_json
[[ $DOCTOR_RC == 9 ]] || fail "doctor exited $DOCTOR_RC without create on PyTorchJobs"
[[ $(jq -r '.notReadyBecause[0]' <<<"$DOC") == "not allowed to create pytorchjobs.kubeflow.org in default" ]] ||
  fail "not ready because: $(jq -c .notReadyBecause <<<"$DOC")"
expect_finding submit.pytorchjob missing "not allowed"
[[ $(alice auth can-i create pytorchjobs.kubeflow.org -n default 2>/dev/null || true) == no ]] || fail "kubectl says yes"
unset DOCTOR_KUBECONFIG

# A PyTorchJob CRD without spec.runPolicy (that trainctl always sends): the dry run is refused
# under fieldValidation=Strict; a cluster without Job hostnames (1.21); no Trainer.
start_kubesim --kubernetes-version 1.21 --crd-drop-field pytorchjobs.kubeflow.org:spec.runPolicy \
  --no-crd trainjobs.trainer.kubeflow.org --no-crd trainingruntimes.trainer.kubeflow.org \
  --no-crd clustertrainingruntimes.trainer.kubeflow.org
doctor_json
[[ $DOCTOR_RC == 9 ]] || fail "doctor exited $DOCTOR_RC on a CRD that refuses the job"
expect_finding submit.pytorchjob missing 'strict decoding error: unknown field "spec.runPolicy"'
grep -q "^error: namespace default cannot run PyTorchJobs: trainctl submit pytorch in default: refused (HTTP 400)" <<<"$DOCTOR_ERR" ||
  fail "stderr: $DOCTOR_ERR"
expect_finding api.batchjob missing "from Kubernetes 1.22"
expect_finding api.trainjob info "Kubeflow Trainer v2 is not installed"
expect_finding api.jobset ok  # served without Trainer: a fact, not a problem
[[ $(finding api.runtimes .status) == absent ]] || fail "runtimes without Trainer: $DOC"
doctor_json -T mpi
[[ $DOCTOR_RC == 0 ]] || fail "doctor -T mpi exited $DOCTOR_RC: $DOCTOR_ERR"

# No training-operator at all.
start_kubesim --no-crd pytorchjobs.kubeflow.org
doctor_json
[[ $DOCTOR_RC == 9 ]] || fail "doctor exited $DOCTOR_RC without PyTorchJobs"
expect_finding api.pytorchjob missing "install the training-operator, or use --operator none"
expect_finding submit.pytorchjob missing "is not served"
[[ $(jq -r '.notReadyBecause[0]' <<<"$DOC") == "PyTorchJob: not served (no kubeflow.org/v1 pytorchjobs)" ]] ||
  fail "not ready because: $(jq -c .notReadyBecause <<<"$DOC")"
echo "ok"
