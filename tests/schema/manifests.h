// Hand-written manifests, each field checked against the CRD / OpenAPI schema text in
// ../shared/k8s-schemas (PyTorchJob v1 from training-operator v1.9, MPIJob v2beta1 from
// mpi-operator v0.8, Volcano Job v1alpha1 from volcano v1.15, Kubernetes 1.35 built-ins).
#pragma once

namespace trainctl::schema::test {

inline constexpr const char* kPyTorchJob = R"(
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: mnist-ddp
  namespace: team-a
  labels:
    app.kubernetes.io/managed-by: trainctl
  annotations:
    trainctl.io/owner: "alice"
spec:
  nprocPerNode: "2"
  runPolicy:
    cleanPodPolicy: None
    backoffLimit: 3
    ttlSecondsAfterFinished: 600
    activeDeadlineSeconds: 86400
    schedulingPolicy:
      queue: default
      minAvailable: 3
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      restartPolicy: OnFailure
      template:
        metadata:
          labels:
            training.kubeflow.org/job-role: master
          annotations:
            sidecar.istio.io/inject: "false"
        spec:
          containers:
          - name: pytorch
            image: docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727
            imagePullPolicy: IfNotPresent
            command: ["python3", "/opt/pytorch-mnist/mnist.py"]
            args: ["--epochs", "1", "--backend", "nccl"]
            workingDir: /opt/pytorch-mnist
            env:
            - name: NCCL_DEBUG
              value: INFO
            - name: POD_NAME
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
            ports:
            - name: pytorchjob-port
              containerPort: 23456
              protocol: TCP
            resources:
              limits:
                nvidia.com/gpu: 1
                memory: 2Gi
                cpu: "4"
              requests:
                cpu: 500m
                memory: 1Gi
            volumeMounts:
            - name: data
              mountPath: /data
              readOnly: true
            - name: dshm
              mountPath: /dev/shm
          volumes:
          - name: data
            persistentVolumeClaim:
              claimName: training-data
          - name: dshm
            emptyDir:
              medium: Memory
              sizeLimit: 1Gi
    Worker:
      replicas: 2
      restartPolicy: OnFailure
      template:
        spec:
          nodeSelector:
            nvidia.com/gpu.present: "true"
          tolerations:
          - key: nvidia.com/gpu
            operator: Exists
            effect: NoSchedule
          containers:
          - name: pytorch
            image: docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727
            resources:
              limits:
                nvidia.com/gpu: 1
)";

inline constexpr const char* kMpiJob = R"(
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata:
  name: tf-mpi
spec:
  slotsPerWorker: 1
  mpiImplementation: OpenMPI
  launcherCreationPolicy: WaitForWorkersReady
  sshAuthMountPath: /home/mpiuser/.ssh
  runPolicy:
    cleanPodPolicy: Running
    ttlSecondsAfterFinished: 60
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template:
        spec:
          containers:
          - name: launcher
            image: mpioperator/tensorflow-benchmarks:latest
            command: ["mpirun", "python", "scripts/tf_cnn_benchmarks/tf_cnn_benchmarks.py"]
            securityContext:
              runAsUser: 1000
    Worker:
      replicas: 2
      template:
        spec:
          containers:
          - name: worker
            image: mpioperator/tensorflow-benchmarks:latest
            resources:
              limits:
                nvidia.com/gpu: 1
)";

inline constexpr const char* kVolcanoJob = R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: vc-train
spec:
  minAvailable: 3
  schedulerName: volcano
  queue: default
  maxRetry: 3
  plugins:
    env: []
    svc: ["--disable-network-policy=true"]
    ssh: []
  policies:
  - event: PodEvicted
    action: RestartJob
  tasks:
  - name: master
    replicas: 1
    policies:
    - event: TaskCompleted
      action: CompleteJob
    template:
      spec:
        restartPolicy: OnFailure
        containers:
        - name: master
          image: busybox:1.36
          command: ["sh", "-c", "echo master"]
          resources:
            limits:
              nvidia.com/gpu: 1
  - name: worker
    replicas: 2
    template:
      metadata:
        labels:
          role: worker
      spec:
        restartPolicy: OnFailure
        containers:
        - name: worker
          image: busybox:1.36
          resources:
            requests:
              cpu: 1
              memory: 512Mi
)";

inline constexpr const char* kDeployment = R"(
apiVersion: apps/v1
kind: Deployment
metadata:
  name: tensorboard-mnist
  labels:
    app: tensorboard
spec:
  replicas: 1
  selector:
    matchLabels:
      app: tensorboard
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  template:
    metadata:
      labels:
        app: tensorboard
    spec:
      containers:
      - name: tensorboard
        image: tensorflow/tensorflow:2.15.0
        command: ["tensorboard", "--logdir", "/logs", "--bind_all"]
        ports:
        - containerPort: 6006
        resources:
          limits:
            cpu: 500m
            memory: 1Gi
        volumeMounts:
        - name: logs
          mountPath: /logs
      volumes:
      - name: logs
        persistentVolumeClaim:
          claimName: training-logs
)";

inline constexpr const char* kNodePortService = R"(
apiVersion: v1
kind: Service
metadata:
  name: tensorboard-mnist
spec:
  type: NodePort
  selector:
    app: tensorboard
  ports:
  - name: http
    port: 80
    targetPort: 6006
    nodePort: 30606
    protocol: TCP
  - name: metrics
    port: 9090
    targetPort: metrics
)";

inline constexpr const char* kIndexedJob = R"(
apiVersion: batch/v1
kind: Job
metadata:
  name: mnist-launcher
spec:
  completionMode: Indexed
  completions: 4
  parallelism: 4
  backoffLimit: 0
  ttlSecondsAfterFinished: 300
  template:
    spec:
      restartPolicy: Never
      subdomain: mnist-workers
      containers:
      - name: worker
        image: busybox:1.36
        command: ["sh", "-c", "echo $JOB_COMPLETION_INDEX"]
        env:
        - name: RANK
          valueFrom:
            fieldRef:
              fieldPath: metadata.annotations['batch.kubernetes.io/job-completion-index']
)";

}  // namespace trainctl::schema::test
