# Sourced by the TrainJob integration tests: TrainJobs as a user writes them for kubectl apply.

# deepspeed_trainjob NAME DURATION: a TrainJob on Trainer's deepspeed-distributed runtime, three
# nodes (a launcher that reaches its ssh nodes through the hostfile), running DURATION on
# kubesim; printed as YAML.
deepspeed_trainjob() {
  cat <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: $1
  annotations: {kubesim.trainctl.io/duration: $2}
spec:
  runtimeRef: {name: deepspeed-distributed}
  trainer:
    numNodes: 3
    command: [mpirun, --allow-run-as-root, python3, /workspace/train.py]
YAML
}

# torch_runtime KIND NAME [RESOURCES]: a one-job torch runtime (ClusterTrainingRuntime or
# TrainingRuntime) whose container node has RESOURCES (a flow mapping such as
# "{limits: {nvidia.com/gpu: 2}}"); printed as YAML.
torch_runtime() {
  cat <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: $1
metadata: {name: $2, labels: {trainer.kubeflow.org/framework: torch}}
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  template:
    spec:
      replicatedJobs:
      - name: node
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}
          spec:
            template:
              spec:
                containers: [{name: node, image: pytorch/pytorch, resources: ${3:-{\}}}]
YAML
}
