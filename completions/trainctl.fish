# fish completion for trainctl, generated from the command tree by
# `trainctl completion fish`; do not edit. Install: trainctl completion fish | source, or
# save it as ~/.config/fish/completions/trainctl.fish. Job, instance, namespace, PVC and
# node names and kubeconfig contexts come from `trainctl __complete`.

function __trainctl_child --argument-names cmdpath word
    switch "$cmdpath $word"
        case 'trainctl submit'
            echo submit
        case 'trainctl list'
            echo list
        case 'trainctl ls'
            echo list
        case 'trainctl get'
            echo get
        case 'trainctl logs'
            echo logs
        case 'trainctl log'
            echo logs
        case 'trainctl top'
            echo top
        case 'trainctl data'
            echo data
        case 'trainctl queue'
            echo queue
        case 'trainctl runtime'
            echo runtime
        case 'trainctl delete'
            echo delete
        case 'trainctl del'
            echo delete
        case 'trainctl suspend'
            echo suspend
        case 'trainctl resume'
            echo resume
        case 'trainctl wait'
            echo wait
        case 'trainctl doctor'
            echo doctor
        case 'trainctl completion'
            echo completion
        case 'trainctl version'
            echo version
        case 'trainctl templates'
            echo templates
        case 'trainctl config'
            echo config
        case 'trainctl submit pytorch'
            echo pytorch
        case 'trainctl submit pytorchjob'
            echo pytorch
        case 'trainctl submit mpi'
            echo mpi
        case 'trainctl submit mpijob'
            echo mpi
        case 'trainctl submit volcano'
            echo volcano
        case 'trainctl submit volcanojob'
            echo volcano
        case 'trainctl submit tf'
            echo tf
        case 'trainctl submit tfjob'
            echo tf
        case 'trainctl submit trainjob'
            echo trainjob
        case 'trainctl submit tj'
            echo trainjob
        case 'trainctl top node'
            echo node
        case 'trainctl top job'
            echo job
        case 'trainctl top queue'
            echo queue
        case 'trainctl data list'
            echo list
        case 'trainctl data ls'
            echo list
        case 'trainctl queue list'
            echo list
        case 'trainctl queue pending'
            echo pending
        case 'trainctl runtime list'
            echo list
        case 'trainctl runtime ls'
            echo list
        case 'trainctl templates export'
            echo export
        case 'trainctl config view'
            echo view
    end
end

function __trainctl_takes_value --argument-names cmdpath flag
    switch "$cmdpath $flag"
        case 'trainctl --kubeconfig' 'trainctl --config' 'trainctl --context' 'trainctl -n' 'trainctl --namespace' 'trainctl --loglevel' 'trainctl --request-timeout' 'trainctl --prometheus'
            return 0
        case 'trainctl submit --kubeconfig' 'trainctl submit --config' 'trainctl submit --context' 'trainctl submit -n' 'trainctl submit --namespace' 'trainctl submit --loglevel' 'trainctl submit --request-timeout' 'trainctl submit --prometheus'
            return 0
        case 'trainctl submit pytorch --name' 'trainctl submit pytorch --image' 'trainctl submit pytorch --gpus' 'trainctl submit pytorch --cpu' 'trainctl submit pytorch --memory' 'trainctl submit pytorch --working-dir' 'trainctl submit pytorch --workingDir' 'trainctl submit pytorch -e' 'trainctl submit pytorch --env' 'trainctl submit pytorch -d' 'trainctl submit pytorch --data' 'trainctl submit pytorch --data-dir' 'trainctl submit pytorch --dataDir' 'trainctl submit pytorch --selector' 'trainctl submit pytorch --toleration' 'trainctl submit pytorch -a' 'trainctl submit pytorch --annotation' 'trainctl submit pytorch -l' 'trainctl submit pytorch --label' 'trainctl submit pytorch --image-pull-secret' 'trainctl submit pytorch --imagePullSecret' 'trainctl submit pytorch --image-pull-policy' 'trainctl submit pytorch --imagePullPolicy' 'trainctl submit pytorch --device' 'trainctl submit pytorch --config-file' 'trainctl submit pytorch --configFile' 'trainctl submit pytorch --service-account' 'trainctl submit pytorch -p' 'trainctl submit pytorch --priority' 'trainctl submit pytorch --shell' 'trainctl submit pytorch --retry' 'trainctl submit pytorch --ttl-after-finished' 'trainctl submit pytorch --workers' 'trainctl submit pytorch --sync-mode' 'trainctl submit pytorch --syncMode' 'trainctl submit pytorch --sync-source' 'trainctl submit pytorch --syncSource' 'trainctl submit pytorch --sync-image' 'trainctl submit pytorch --syncImage' 'trainctl submit pytorch --logdir' 'trainctl submit pytorch --tensorboard-image' 'trainctl submit pytorch --tensorboardImage' 'trainctl submit pytorch --running-timeout' 'trainctl submit pytorch --clean-task-policy' 'trainctl submit pytorch --cleanTaskPolicy' 'trainctl submit pytorch --share-memory' 'trainctl submit pytorch --shm-size' 'trainctl submit pytorch --scheduler' 'trainctl submit pytorch --kueue-queue' 'trainctl submit pytorch --min-available' 'trainctl submit pytorch --minAvailable' 'trainctl submit pytorch --schedule-timeout' 'trainctl submit pytorch --min-resources' 'trainctl submit pytorch --nproc-per-node' 'trainctl submit pytorch --worker-image' 'trainctl submit pytorch --api' 'trainctl submit pytorch --operator' 'trainctl submit pytorch --master-port' 'trainctl submit pytorch --min-workers' 'trainctl submit pytorch --max-workers' 'trainctl submit pytorch --max-restarts' 'trainctl submit pytorch --rdzv-backend' 'trainctl submit pytorch --rdzv-port' 'trainctl submit pytorch -o' 'trainctl submit pytorch --output' 'trainctl submit pytorch --timeout' 'trainctl submit pytorch --template-dir' 'trainctl submit pytorch --slots-per-worker' 'trainctl submit pytorch --launcher-cpu' 'trainctl submit pytorch --launcher-memory' 'trainctl submit pytorch --task' 'trainctl submit pytorch --task-images' 'trainctl submit pytorch --task-label' 'trainctl submit pytorch --task-policy' 'trainctl submit pytorch --policy' 'trainctl submit pytorch --task-replicas' 'trainctl submit pytorch --task-name' 'trainctl submit pytorch --task-cpu' 'trainctl submit pytorch --task-memory' 'trainctl submit pytorch --task-port' 'trainctl submit pytorch --scheduler-name' 'trainctl submit pytorch --ps' 'trainctl submit pytorch --ps-image' 'trainctl submit pytorch --ps-gpus' 'trainctl submit pytorch --ps-port' 'trainctl submit pytorch --ps-cpu' 'trainctl submit pytorch --ps-memory' 'trainctl submit pytorch --ps-selector' 'trainctl submit pytorch --worker-port' 'trainctl submit pytorch --worker-cpu' 'trainctl submit pytorch --worker-memory' 'trainctl submit pytorch --worker-selector' 'trainctl submit pytorch --chief-port' 'trainctl submit pytorch --chief-cpu' 'trainctl submit pytorch --chief-memory' 'trainctl submit pytorch --chief-selector' 'trainctl submit pytorch --evaluator-port' 'trainctl submit pytorch --evaluator-cpu' 'trainctl submit pytorch --evaluator-memory' 'trainctl submit pytorch --evaluator-selector' 'trainctl submit pytorch --success-policy' 'trainctl submit pytorch --runtime' 'trainctl submit pytorch --runtime-kind' 'trainctl submit pytorch --arg' 'trainctl submit pytorch --dataset-uri' 'trainctl submit pytorch --model-uri' 'trainctl submit pytorch --kubeconfig' 'trainctl submit pytorch --config' 'trainctl submit pytorch --context' 'trainctl submit pytorch -n' 'trainctl submit pytorch --namespace' 'trainctl submit pytorch --loglevel' 'trainctl submit pytorch --request-timeout' 'trainctl submit pytorch --prometheus'
            return 0
        case 'trainctl submit mpi --name' 'trainctl submit mpi --image' 'trainctl submit mpi --gpus' 'trainctl submit mpi --cpu' 'trainctl submit mpi --memory' 'trainctl submit mpi --working-dir' 'trainctl submit mpi --workingDir' 'trainctl submit mpi -e' 'trainctl submit mpi --env' 'trainctl submit mpi -d' 'trainctl submit mpi --data' 'trainctl submit mpi --data-dir' 'trainctl submit mpi --dataDir' 'trainctl submit mpi --selector' 'trainctl submit mpi --toleration' 'trainctl submit mpi -a' 'trainctl submit mpi --annotation' 'trainctl submit mpi -l' 'trainctl submit mpi --label' 'trainctl submit mpi --image-pull-secret' 'trainctl submit mpi --imagePullSecret' 'trainctl submit mpi --image-pull-policy' 'trainctl submit mpi --imagePullPolicy' 'trainctl submit mpi --device' 'trainctl submit mpi --config-file' 'trainctl submit mpi --configFile' 'trainctl submit mpi --service-account' 'trainctl submit mpi -p' 'trainctl submit mpi --priority' 'trainctl submit mpi --shell' 'trainctl submit mpi --retry' 'trainctl submit mpi --ttl-after-finished' 'trainctl submit mpi --workers' 'trainctl submit mpi --sync-mode' 'trainctl submit mpi --syncMode' 'trainctl submit mpi --sync-source' 'trainctl submit mpi --syncSource' 'trainctl submit mpi --sync-image' 'trainctl submit mpi --syncImage' 'trainctl submit mpi --logdir' 'trainctl submit mpi --tensorboard-image' 'trainctl submit mpi --tensorboardImage' 'trainctl submit mpi --running-timeout' 'trainctl submit mpi --clean-task-policy' 'trainctl submit mpi --cleanTaskPolicy' 'trainctl submit mpi --share-memory' 'trainctl submit mpi --shm-size' 'trainctl submit mpi --scheduler' 'trainctl submit mpi --kueue-queue' 'trainctl submit mpi --min-available' 'trainctl submit mpi --minAvailable' 'trainctl submit mpi --schedule-timeout' 'trainctl submit mpi --min-resources' 'trainctl submit mpi --slots-per-worker' 'trainctl submit mpi --launcher-cpu' 'trainctl submit mpi --launcher-memory' 'trainctl submit mpi --worker-image' 'trainctl submit mpi -o' 'trainctl submit mpi --output' 'trainctl submit mpi --timeout' 'trainctl submit mpi --template-dir' 'trainctl submit mpi --nproc-per-node' 'trainctl submit mpi --api' 'trainctl submit mpi --operator' 'trainctl submit mpi --master-port' 'trainctl submit mpi --min-workers' 'trainctl submit mpi --max-workers' 'trainctl submit mpi --max-restarts' 'trainctl submit mpi --rdzv-backend' 'trainctl submit mpi --rdzv-port' 'trainctl submit mpi --task' 'trainctl submit mpi --task-images' 'trainctl submit mpi --task-label' 'trainctl submit mpi --task-policy' 'trainctl submit mpi --policy' 'trainctl submit mpi --task-replicas' 'trainctl submit mpi --task-name' 'trainctl submit mpi --task-cpu' 'trainctl submit mpi --task-memory' 'trainctl submit mpi --task-port' 'trainctl submit mpi --scheduler-name' 'trainctl submit mpi --ps' 'trainctl submit mpi --ps-image' 'trainctl submit mpi --ps-gpus' 'trainctl submit mpi --ps-port' 'trainctl submit mpi --ps-cpu' 'trainctl submit mpi --ps-memory' 'trainctl submit mpi --ps-selector' 'trainctl submit mpi --worker-port' 'trainctl submit mpi --worker-cpu' 'trainctl submit mpi --worker-memory' 'trainctl submit mpi --worker-selector' 'trainctl submit mpi --chief-port' 'trainctl submit mpi --chief-cpu' 'trainctl submit mpi --chief-memory' 'trainctl submit mpi --chief-selector' 'trainctl submit mpi --evaluator-port' 'trainctl submit mpi --evaluator-cpu' 'trainctl submit mpi --evaluator-memory' 'trainctl submit mpi --evaluator-selector' 'trainctl submit mpi --success-policy' 'trainctl submit mpi --runtime' 'trainctl submit mpi --runtime-kind' 'trainctl submit mpi --arg' 'trainctl submit mpi --dataset-uri' 'trainctl submit mpi --model-uri' 'trainctl submit mpi --kubeconfig' 'trainctl submit mpi --config' 'trainctl submit mpi --context' 'trainctl submit mpi -n' 'trainctl submit mpi --namespace' 'trainctl submit mpi --loglevel' 'trainctl submit mpi --request-timeout' 'trainctl submit mpi --prometheus'
            return 0
        case 'trainctl submit volcano --name' 'trainctl submit volcano --image' 'trainctl submit volcano --gpus' 'trainctl submit volcano --cpu' 'trainctl submit volcano --memory' 'trainctl submit volcano --working-dir' 'trainctl submit volcano --workingDir' 'trainctl submit volcano -e' 'trainctl submit volcano --env' 'trainctl submit volcano -d' 'trainctl submit volcano --data' 'trainctl submit volcano --data-dir' 'trainctl submit volcano --dataDir' 'trainctl submit volcano --selector' 'trainctl submit volcano --toleration' 'trainctl submit volcano -a' 'trainctl submit volcano --annotation' 'trainctl submit volcano -l' 'trainctl submit volcano --label' 'trainctl submit volcano --image-pull-secret' 'trainctl submit volcano --imagePullSecret' 'trainctl submit volcano --image-pull-policy' 'trainctl submit volcano --imagePullPolicy' 'trainctl submit volcano --device' 'trainctl submit volcano --config-file' 'trainctl submit volcano --configFile' 'trainctl submit volcano --service-account' 'trainctl submit volcano -p' 'trainctl submit volcano --priority' 'trainctl submit volcano --shell' 'trainctl submit volcano --retry' 'trainctl submit volcano --ttl-after-finished' 'trainctl submit volcano --task' 'trainctl submit volcano --task-images' 'trainctl submit volcano --taskImages' 'trainctl submit volcano --task-label' 'trainctl submit volcano --task-policy' 'trainctl submit volcano --policy' 'trainctl submit volcano --task-replicas' 'trainctl submit volcano --taskReplicas' 'trainctl submit volcano --task-name' 'trainctl submit volcano --taskName' 'trainctl submit volcano --task-cpu' 'trainctl submit volcano --taskCPU' 'trainctl submit volcano --task-memory' 'trainctl submit volcano --taskMemory' 'trainctl submit volcano --task-port' 'trainctl submit volcano --taskPort' 'trainctl submit volcano --min-available' 'trainctl submit volcano --minAvailable' 'trainctl submit volcano --queue' 'trainctl submit volcano --kueue-queue' 'trainctl submit volcano --scheduler-name' 'trainctl submit volcano --schedulerName' 'trainctl submit volcano --scheduler' 'trainctl submit volcano -o' 'trainctl submit volcano --output' 'trainctl submit volcano --timeout' 'trainctl submit volcano --template-dir' 'trainctl submit volcano --workers' 'trainctl submit volcano --sync-mode' 'trainctl submit volcano --sync-source' 'trainctl submit volcano --sync-image' 'trainctl submit volcano --logdir' 'trainctl submit volcano --tensorboard-image' 'trainctl submit volcano --running-timeout' 'trainctl submit volcano --clean-task-policy' 'trainctl submit volcano --share-memory' 'trainctl submit volcano --schedule-timeout' 'trainctl submit volcano --min-resources' 'trainctl submit volcano --nproc-per-node' 'trainctl submit volcano --worker-image' 'trainctl submit volcano --api' 'trainctl submit volcano --operator' 'trainctl submit volcano --master-port' 'trainctl submit volcano --min-workers' 'trainctl submit volcano --max-workers' 'trainctl submit volcano --max-restarts' 'trainctl submit volcano --rdzv-backend' 'trainctl submit volcano --rdzv-port' 'trainctl submit volcano --slots-per-worker' 'trainctl submit volcano --launcher-cpu' 'trainctl submit volcano --launcher-memory' 'trainctl submit volcano --ps' 'trainctl submit volcano --ps-image' 'trainctl submit volcano --ps-gpus' 'trainctl submit volcano --ps-port' 'trainctl submit volcano --ps-cpu' 'trainctl submit volcano --ps-memory' 'trainctl submit volcano --ps-selector' 'trainctl submit volcano --worker-port' 'trainctl submit volcano --worker-cpu' 'trainctl submit volcano --worker-memory' 'trainctl submit volcano --worker-selector' 'trainctl submit volcano --chief-port' 'trainctl submit volcano --chief-cpu' 'trainctl submit volcano --chief-memory' 'trainctl submit volcano --chief-selector' 'trainctl submit volcano --evaluator-port' 'trainctl submit volcano --evaluator-cpu' 'trainctl submit volcano --evaluator-memory' 'trainctl submit volcano --evaluator-selector' 'trainctl submit volcano --success-policy' 'trainctl submit volcano --runtime' 'trainctl submit volcano --runtime-kind' 'trainctl submit volcano --arg' 'trainctl submit volcano --dataset-uri' 'trainctl submit volcano --model-uri' 'trainctl submit volcano --kubeconfig' 'trainctl submit volcano --config' 'trainctl submit volcano --context' 'trainctl submit volcano -n' 'trainctl submit volcano --namespace' 'trainctl submit volcano --loglevel' 'trainctl submit volcano --request-timeout' 'trainctl submit volcano --prometheus'
            return 0
        case 'trainctl submit tf --name' 'trainctl submit tf --image' 'trainctl submit tf --gpus' 'trainctl submit tf --cpu' 'trainctl submit tf --memory' 'trainctl submit tf --working-dir' 'trainctl submit tf --workingDir' 'trainctl submit tf -e' 'trainctl submit tf --env' 'trainctl submit tf -d' 'trainctl submit tf --data' 'trainctl submit tf --data-dir' 'trainctl submit tf --dataDir' 'trainctl submit tf --selector' 'trainctl submit tf --toleration' 'trainctl submit tf -a' 'trainctl submit tf --annotation' 'trainctl submit tf -l' 'trainctl submit tf --label' 'trainctl submit tf --image-pull-secret' 'trainctl submit tf --imagePullSecret' 'trainctl submit tf --image-pull-policy' 'trainctl submit tf --imagePullPolicy' 'trainctl submit tf --device' 'trainctl submit tf --config-file' 'trainctl submit tf --configFile' 'trainctl submit tf --service-account' 'trainctl submit tf -p' 'trainctl submit tf --priority' 'trainctl submit tf --shell' 'trainctl submit tf --retry' 'trainctl submit tf --ttl-after-finished' 'trainctl submit tf --workers' 'trainctl submit tf --sync-mode' 'trainctl submit tf --syncMode' 'trainctl submit tf --sync-source' 'trainctl submit tf --syncSource' 'trainctl submit tf --sync-image' 'trainctl submit tf --syncImage' 'trainctl submit tf --logdir' 'trainctl submit tf --tensorboard-image' 'trainctl submit tf --tensorboardImage' 'trainctl submit tf --running-timeout' 'trainctl submit tf --clean-task-policy' 'trainctl submit tf --cleanTaskPolicy' 'trainctl submit tf --share-memory' 'trainctl submit tf --shm-size' 'trainctl submit tf --scheduler' 'trainctl submit tf --kueue-queue' 'trainctl submit tf --min-available' 'trainctl submit tf --minAvailable' 'trainctl submit tf --schedule-timeout' 'trainctl submit tf --min-resources' 'trainctl submit tf --worker-image' 'trainctl submit tf -o' 'trainctl submit tf --output' 'trainctl submit tf --timeout' 'trainctl submit tf --template-dir' 'trainctl submit tf --workerImage' 'trainctl submit tf --ps' 'trainctl submit tf --ps-image' 'trainctl submit tf --psImage' 'trainctl submit tf --ps-gpus' 'trainctl submit tf --ps-port' 'trainctl submit tf --ps-cpu' 'trainctl submit tf --ps-memory' 'trainctl submit tf --ps-selector' 'trainctl submit tf --psPort' 'trainctl submit tf --psCpu' 'trainctl submit tf --psMemory' 'trainctl submit tf --worker-port' 'trainctl submit tf --worker-cpu' 'trainctl submit tf --worker-memory' 'trainctl submit tf --worker-selector' 'trainctl submit tf --workerPort' 'trainctl submit tf --workerCpu' 'trainctl submit tf --workerMemory' 'trainctl submit tf --chief-port' 'trainctl submit tf --chief-cpu' 'trainctl submit tf --chief-memory' 'trainctl submit tf --chief-selector' 'trainctl submit tf --chiefPort' 'trainctl submit tf --ChiefCpu' 'trainctl submit tf --ChiefMemory' 'trainctl submit tf --evaluator-port' 'trainctl submit tf --evaluator-cpu' 'trainctl submit tf --evaluator-memory' 'trainctl submit tf --evaluator-selector' 'trainctl submit tf --evaluatorCpu' 'trainctl submit tf --evaluatorMemory' 'trainctl submit tf --success-policy' 'trainctl submit tf --nproc-per-node' 'trainctl submit tf --api' 'trainctl submit tf --operator' 'trainctl submit tf --master-port' 'trainctl submit tf --min-workers' 'trainctl submit tf --max-workers' 'trainctl submit tf --max-restarts' 'trainctl submit tf --rdzv-backend' 'trainctl submit tf --rdzv-port' 'trainctl submit tf --slots-per-worker' 'trainctl submit tf --launcher-cpu' 'trainctl submit tf --launcher-memory' 'trainctl submit tf --task' 'trainctl submit tf --task-images' 'trainctl submit tf --task-label' 'trainctl submit tf --task-policy' 'trainctl submit tf --policy' 'trainctl submit tf --task-replicas' 'trainctl submit tf --task-name' 'trainctl submit tf --task-cpu' 'trainctl submit tf --task-memory' 'trainctl submit tf --task-port' 'trainctl submit tf --scheduler-name' 'trainctl submit tf --runtime' 'trainctl submit tf --runtime-kind' 'trainctl submit tf --arg' 'trainctl submit tf --dataset-uri' 'trainctl submit tf --model-uri' 'trainctl submit tf --kubeconfig' 'trainctl submit tf --config' 'trainctl submit tf --context' 'trainctl submit tf -n' 'trainctl submit tf --namespace' 'trainctl submit tf --loglevel' 'trainctl submit tf --request-timeout' 'trainctl submit tf --prometheus'
            return 0
        case 'trainctl submit trainjob --name' 'trainctl submit trainjob --runtime' 'trainctl submit trainjob --runtime-kind' 'trainctl submit trainjob --image' 'trainctl submit trainjob --workers' 'trainctl submit trainjob --gpus' 'trainctl submit trainjob --cpu' 'trainctl submit trainjob --memory' 'trainctl submit trainjob --device' 'trainctl submit trainjob --nproc-per-node' 'trainctl submit trainjob -e' 'trainctl submit trainjob --env' 'trainctl submit trainjob --working-dir' 'trainctl submit trainjob --shell' 'trainctl submit trainjob --sync-mode' 'trainctl submit trainjob --syncMode' 'trainctl submit trainjob --sync-source' 'trainctl submit trainjob --syncSource' 'trainctl submit trainjob --sync-image' 'trainctl submit trainjob --syncImage' 'trainctl submit trainjob --arg' 'trainctl submit trainjob -d' 'trainctl submit trainjob --data' 'trainctl submit trainjob --data-dir' 'trainctl submit trainjob --selector' 'trainctl submit trainjob --toleration' 'trainctl submit trainjob -a' 'trainctl submit trainjob --annotation' 'trainctl submit trainjob -l' 'trainctl submit trainjob --label' 'trainctl submit trainjob --image-pull-secret' 'trainctl submit trainjob --service-account' 'trainctl submit trainjob --dataset-uri' 'trainctl submit trainjob --model-uri' 'trainctl submit trainjob --logdir' 'trainctl submit trainjob --tensorboard-image' 'trainctl submit trainjob --running-timeout' 'trainctl submit trainjob --kueue-queue' 'trainctl submit trainjob -o' 'trainctl submit trainjob --output' 'trainctl submit trainjob --timeout' 'trainctl submit trainjob --template-dir' 'trainctl submit trainjob --image-pull-policy' 'trainctl submit trainjob --config-file' 'trainctl submit trainjob -p' 'trainctl submit trainjob --priority' 'trainctl submit trainjob --retry' 'trainctl submit trainjob --ttl-after-finished' 'trainctl submit trainjob --clean-task-policy' 'trainctl submit trainjob --share-memory' 'trainctl submit trainjob --scheduler' 'trainctl submit trainjob --min-available' 'trainctl submit trainjob --schedule-timeout' 'trainctl submit trainjob --min-resources' 'trainctl submit trainjob --worker-image' 'trainctl submit trainjob --api' 'trainctl submit trainjob --operator' 'trainctl submit trainjob --master-port' 'trainctl submit trainjob --min-workers' 'trainctl submit trainjob --max-workers' 'trainctl submit trainjob --max-restarts' 'trainctl submit trainjob --rdzv-backend' 'trainctl submit trainjob --rdzv-port' 'trainctl submit trainjob --slots-per-worker' 'trainctl submit trainjob --launcher-cpu' 'trainctl submit trainjob --launcher-memory' 'trainctl submit trainjob --task' 'trainctl submit trainjob --task-images' 'trainctl submit trainjob --task-label' 'trainctl submit trainjob --task-policy' 'trainctl submit trainjob --policy' 'trainctl submit trainjob --task-replicas' 'trainctl submit trainjob --task-name' 'trainctl submit trainjob --task-cpu' 'trainctl submit trainjob --task-memory' 'trainctl submit trainjob --task-port' 'trainctl submit trainjob --scheduler-name' 'trainctl submit trainjob --ps' 'trainctl submit trainjob --ps-image' 'trainctl submit trainjob --ps-gpus' 'trainctl submit trainjob --ps-port' 'trainctl submit trainjob --ps-cpu' 'trainctl submit trainjob --ps-memory' 'trainctl submit trainjob --ps-selector' 'trainctl submit trainjob --worker-port' 'trainctl submit trainjob --worker-cpu' 'trainctl submit trainjob --worker-memory' 'trainctl submit trainjob --worker-selector' 'trainctl submit trainjob --chief-port' 'trainctl submit trainjob --chief-cpu' 'trainctl submit trainjob --chief-memory' 'trainctl submit trainjob --chief-selector' 'trainctl submit trainjob --evaluator-port' 'trainctl submit trainjob --evaluator-cpu' 'trainctl submit trainjob --evaluator-memory' 'trainctl submit trainjob --evaluator-selector' 'trainctl submit trainjob --success-policy' 'trainctl submit trainjob --kubeconfig' 'trainctl submit trainjob --config' 'trainctl submit trainjob --context' 'trainctl submit trainjob -n' 'trainctl submit trainjob --namespace' 'trainctl submit trainjob --loglevel' 'trainctl submit trainjob --request-timeout' 'trainctl submit trainjob --prometheus'
            return 0
        case 'trainctl list -T' 'trainctl list --type' 'trainctl list -o' 'trainctl list --output' 'trainctl list --idle-window' 'trainctl list --idle-threshold' 'trainctl list --kubeconfig' 'trainctl list --config' 'trainctl list --context' 'trainctl list -n' 'trainctl list --namespace' 'trainctl list --loglevel' 'trainctl list --request-timeout' 'trainctl list --prometheus'
            return 0
        case 'trainctl get --idle-window' 'trainctl get --idle-threshold' 'trainctl get -T' 'trainctl get --type' 'trainctl get -o' 'trainctl get --output' 'trainctl get --kubeconfig' 'trainctl get --config' 'trainctl get --context' 'trainctl get -n' 'trainctl get --namespace' 'trainctl get --loglevel' 'trainctl get --request-timeout' 'trainctl get --prometheus'
            return 0
        case 'trainctl logs -i' 'trainctl logs --instance' 'trainctl logs -c' 'trainctl logs --container' 'trainctl logs -t' 'trainctl logs --tail' 'trainctl logs --since' 'trainctl logs --since-time' 'trainctl logs -T' 'trainctl logs --type' 'trainctl logs --role' 'trainctl logs --rank' 'trainctl logs --reconnect-delay' 'trainctl logs --kubeconfig' 'trainctl logs --config' 'trainctl logs --context' 'trainctl logs -n' 'trainctl logs --namespace' 'trainctl logs --loglevel' 'trainctl logs --request-timeout' 'trainctl logs --prometheus'
            return 0
        case 'trainctl top --kubeconfig' 'trainctl top --config' 'trainctl top --context' 'trainctl top -n' 'trainctl top --namespace' 'trainctl top --loglevel' 'trainctl top --request-timeout' 'trainctl top --prometheus'
            return 0
        case 'trainctl top node -o' 'trainctl top node --output' 'trainctl top node --idle-window' 'trainctl top node --idle-threshold' 'trainctl top node --kubeconfig' 'trainctl top node --config' 'trainctl top node --context' 'trainctl top node -n' 'trainctl top node --namespace' 'trainctl top node --loglevel' 'trainctl top node --request-timeout' 'trainctl top node --prometheus'
            return 0
        case 'trainctl top job -i' 'trainctl top job --instance' 'trainctl top job -T' 'trainctl top job --type' 'trainctl top job -o' 'trainctl top job --output' 'trainctl top job --idle-window' 'trainctl top job --idle-threshold' 'trainctl top job --kubeconfig' 'trainctl top job --config' 'trainctl top job --context' 'trainctl top job -n' 'trainctl top job --namespace' 'trainctl top job --loglevel' 'trainctl top job --request-timeout' 'trainctl top job --prometheus'
            return 0
        case 'trainctl top queue -o' 'trainctl top queue --output' 'trainctl top queue --kubeconfig' 'trainctl top queue --config' 'trainctl top queue --context' 'trainctl top queue -n' 'trainctl top queue --namespace' 'trainctl top queue --loglevel' 'trainctl top queue --request-timeout' 'trainctl top queue --prometheus'
            return 0
        case 'trainctl data --kubeconfig' 'trainctl data --config' 'trainctl data --context' 'trainctl data -n' 'trainctl data --namespace' 'trainctl data --loglevel' 'trainctl data --request-timeout' 'trainctl data --prometheus'
            return 0
        case 'trainctl data list -o' 'trainctl data list --output' 'trainctl data list --kubeconfig' 'trainctl data list --config' 'trainctl data list --context' 'trainctl data list -n' 'trainctl data list --namespace' 'trainctl data list --loglevel' 'trainctl data list --request-timeout' 'trainctl data list --prometheus'
            return 0
        case 'trainctl queue --kubeconfig' 'trainctl queue --config' 'trainctl queue --context' 'trainctl queue -n' 'trainctl queue --namespace' 'trainctl queue --loglevel' 'trainctl queue --request-timeout' 'trainctl queue --prometheus'
            return 0
        case 'trainctl queue list -o' 'trainctl queue list --output' 'trainctl queue list --kubeconfig' 'trainctl queue list --config' 'trainctl queue list --context' 'trainctl queue list -n' 'trainctl queue list --namespace' 'trainctl queue list --loglevel' 'trainctl queue list --request-timeout' 'trainctl queue list --prometheus'
            return 0
        case 'trainctl queue pending -o' 'trainctl queue pending --output' 'trainctl queue pending --kubeconfig' 'trainctl queue pending --config' 'trainctl queue pending --context' 'trainctl queue pending -n' 'trainctl queue pending --namespace' 'trainctl queue pending --loglevel' 'trainctl queue pending --request-timeout' 'trainctl queue pending --prometheus'
            return 0
        case 'trainctl runtime --kubeconfig' 'trainctl runtime --config' 'trainctl runtime --context' 'trainctl runtime -n' 'trainctl runtime --namespace' 'trainctl runtime --loglevel' 'trainctl runtime --request-timeout' 'trainctl runtime --prometheus'
            return 0
        case 'trainctl runtime list -o' 'trainctl runtime list --output' 'trainctl runtime list --kubeconfig' 'trainctl runtime list --config' 'trainctl runtime list --context' 'trainctl runtime list -n' 'trainctl runtime list --namespace' 'trainctl runtime list --loglevel' 'trainctl runtime list --request-timeout' 'trainctl runtime list --prometheus'
            return 0
        case 'trainctl delete -T' 'trainctl delete --type' 'trainctl delete --kubeconfig' 'trainctl delete --config' 'trainctl delete --context' 'trainctl delete -n' 'trainctl delete --namespace' 'trainctl delete --loglevel' 'trainctl delete --request-timeout' 'trainctl delete --prometheus'
            return 0
        case 'trainctl suspend -T' 'trainctl suspend --type' 'trainctl suspend --kubeconfig' 'trainctl suspend --config' 'trainctl suspend --context' 'trainctl suspend -n' 'trainctl suspend --namespace' 'trainctl suspend --loglevel' 'trainctl suspend --request-timeout' 'trainctl suspend --prometheus'
            return 0
        case 'trainctl resume -T' 'trainctl resume --type' 'trainctl resume --kubeconfig' 'trainctl resume --config' 'trainctl resume --context' 'trainctl resume -n' 'trainctl resume --namespace' 'trainctl resume --loglevel' 'trainctl resume --request-timeout' 'trainctl resume --prometheus'
            return 0
        case 'trainctl wait --for' 'trainctl wait --timeout' 'trainctl wait -T' 'trainctl wait --type' 'trainctl wait -o' 'trainctl wait --output' 'trainctl wait --kubeconfig' 'trainctl wait --config' 'trainctl wait --context' 'trainctl wait -n' 'trainctl wait --namespace' 'trainctl wait --loglevel' 'trainctl wait --request-timeout' 'trainctl wait --prometheus'
            return 0
        case 'trainctl doctor -T' 'trainctl doctor --type' 'trainctl doctor -o' 'trainctl doctor --output' 'trainctl doctor --kubeconfig' 'trainctl doctor --config' 'trainctl doctor --context' 'trainctl doctor -n' 'trainctl doctor --namespace' 'trainctl doctor --loglevel' 'trainctl doctor --request-timeout' 'trainctl doctor --prometheus'
            return 0
        case 'trainctl completion --kubeconfig' 'trainctl completion --config' 'trainctl completion --context' 'trainctl completion -n' 'trainctl completion --namespace' 'trainctl completion --loglevel' 'trainctl completion --request-timeout' 'trainctl completion --prometheus'
            return 0
        case 'trainctl version -o' 'trainctl version --output' 'trainctl version --kubeconfig' 'trainctl version --config' 'trainctl version --context' 'trainctl version -n' 'trainctl version --namespace' 'trainctl version --loglevel' 'trainctl version --request-timeout' 'trainctl version --prometheus'
            return 0
        case 'trainctl templates --kubeconfig' 'trainctl templates --config' 'trainctl templates --context' 'trainctl templates -n' 'trainctl templates --namespace' 'trainctl templates --loglevel' 'trainctl templates --request-timeout' 'trainctl templates --prometheus'
            return 0
        case 'trainctl templates export --kubeconfig' 'trainctl templates export --config' 'trainctl templates export --context' 'trainctl templates export -n' 'trainctl templates export --namespace' 'trainctl templates export --loglevel' 'trainctl templates export --request-timeout' 'trainctl templates export --prometheus'
            return 0
        case 'trainctl config --kubeconfig' 'trainctl config --config' 'trainctl config --context' 'trainctl config -n' 'trainctl config --namespace' 'trainctl config --loglevel' 'trainctl config --request-timeout' 'trainctl config --prometheus'
            return 0
        case 'trainctl config view -o' 'trainctl config view --output' 'trainctl config view --kubeconfig' 'trainctl config view --config' 'trainctl config view --context' 'trainctl config view -n' 'trainctl config view --namespace' 'trainctl config view --loglevel' 'trainctl config view --request-timeout' 'trainctl config view --prometheus'
            return 0
    end
    return 1
end

# The command path ("trainctl submit pytorch") that the words before the cursor lead to.
function __trainctl_path
    set -l tokens (commandline -opc)
    set -l cmdpath trainctl
    set -l skip 0
    set -l dashdash 0
    for w in $tokens[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        if test $dashdash = 0
            switch $w
                case --
                    set dashdash 1
                    continue
                case '--*=*'
                    continue
                case '-?*'
                    __trainctl_takes_value "$cmdpath" $w; and set skip 1
                    continue
            end
            set -l child (__trainctl_child "$cmdpath" $w)
            if test -n "$child"
                set cmdpath "$cmdpath $child"
            end
        end
    end
    echo $cmdpath
end

function __trainctl_at --argument-names want
    test (__trainctl_path) = "$want"
end

# Candidates from `trainctl __complete WORDS...`, without its last line (":N").
function __trainctl_dynamic
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -l out ($tokens[1] __complete $tokens[2..-1] "$current" 2>/dev/null)
    or return 0
    for line in $out
        string match -qr '^:[0-9]+$' -- $line; and continue
        echo $line
    end
end

complete -c trainctl -e

# trainctl
complete -c trainctl -s h -l help -d 'Print this help message and exit'
complete -c trainctl -l kubeconfig -r -F -d 'Path to the kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)'
complete -c trainctl -l context -x -a '(__trainctl_dynamic)' -d 'The kubeconfig context to use'
complete -c trainctl -s n -l namespace -x -a '(__trainctl_dynamic)' -d 'The namespace (default: the config file'\''s, then the context'\''s, then "default")'
complete -c trainctl -l loglevel -x -a 'debug info warn warning error' -d 'Log level: debug, info, warn or error'
complete -c trainctl -s v -l verbose -d 'More logging: -v info, -vv debug'
complete -c trainctl -l request-timeout -r -F -d 'Timeout of each API request, e.g. 30s; 0 for none'
complete -c trainctl -l no-color -d 'Never colour the output (NO_COLOR does the same)'
complete -c trainctl -l prometheus -r -F -d 'Prometheus URL for GPU metrics (default: $TRAINCTL_PROMETHEUS, the config file'\''s, else one found in the cluster)'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a submit -d 'Submit a training job (pytorch, mpi, volcano, tf, trainjob)'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a list -d 'List training jobs'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a ls -d 'alias of list: List training jobs'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a get -d 'Show one training job: status, instances, TensorBoard'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a logs -d 'Print the logs of a training job'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a log -d 'alias of logs: Print the logs of a training job'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a top -d 'Show GPU usage of nodes and jobs'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a data -d 'Inspect the data volumes (PVCs) usable by jobs'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a queue -d 'Show the queues jobs wait in (Volcano, Kueue)'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a runtime -d 'Inspect the Kubeflow Trainer v2 runtimes TrainJobs run on'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a delete -d 'Delete training jobs and everything created for them'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a del -d 'alias of delete: Delete training jobs and everything created for them'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a suspend -d 'Suspend a training job: its pods are deleted, the job stays until resumed'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a resume -d 'Resume a suspended training job: its pods are created again'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a wait -d 'Wait until a training job runs or finishes; the exit code says how it ended'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a doctor -d 'Check what this cluster can run for you, and what is missing'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a completion -d 'Print a shell completion script (bash, zsh or fish)'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a version -d 'Print the version of trainctl'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a templates -d 'Manage the manifest templates used by submit'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f -a config -d 'Show the trainctl config file (~/.config/trainctl/config.yaml)'
complete -c trainctl -n '__trainctl_at '\''trainctl'\''' -f

# trainctl submit
complete -c trainctl -n '__trainctl_at '\''trainctl submit'\''' -f -a pytorch -d 'Submit a PyTorchJob (kubeflow.org/v1)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit'\''' -f -a pytorchjob -d 'alias of pytorch: Submit a PyTorchJob (kubeflow.org/v1)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit'\''' -f -a mpi -d 'Submit an MPIJob (kubeflow.org/v2beta1)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit'\''' -f -a mpijob -d 'alias of mpi: Submit an MPIJob (kubeflow.org/v2beta1)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit'\''' -f -a volcano -d 'Submit a Volcano Job (batch.volcano.sh/v1alpha1)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit'\''' -f -a volcanojob -d 'alias of volcano: Submit a Volcano Job (batch.volcano.sh/v1alpha1)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit'\''' -f -a tf -d 'Submit a TFJob (kubeflow.org/v1)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit'\''' -f -a tfjob -d 'alias of tf: Submit a TFJob (kubeflow.org/v1)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit'\''' -f -a trainjob -d 'Submit a TrainJob (trainer.kubeflow.org/v1alpha1) on a training runtime'
complete -c trainctl -n '__trainctl_at '\''trainctl submit'\''' -f -a tj -d 'alias of trainjob: Submit a TrainJob (trainer.kubeflow.org/v1alpha1) on a training runtime'
complete -c trainctl -n '__trainctl_at '\''trainctl submit'\''' -f

# trainctl submit pytorch
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l name -r -F -d 'Job name (required; lower-case letters, digits, '\''-'\'')'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l image -r -F -d 'Container image of the job'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l gpus -r -F -d 'GPUs per pod (nvidia.com/gpu)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l cpu -r -F -d 'CPU request and limit per pod, e.g. 4 or 500m'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l memory -r -F -d 'Memory request and limit per pod, e.g. 8Gi'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l working-dir -r -F -d 'Working directory of the command'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -s e -l env -r -F -d 'Environment variable KEY=VALUE (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -s d -l data -x -a '(__trainctl_dynamic)' -d 'Mount a PVC: PVC_NAME:/mount/path (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l data-dir -r -F -d 'Mount a host directory: /host/path[:/mount/path] (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l selector -r -F -d 'Node selector KEY=VALUE (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l toleration -r -F -d 'Toleration KEY[=VALUE][:EFFECT], or all (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -s a -l annotation -r -F -d 'Annotation KEY=VALUE on the job and its pods (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -s l -l label -r -F -d 'Label KEY=VALUE on the job and its pods (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l image-pull-secret -r -F -d 'Image pull secret name (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l image-pull-policy -x -a 'Always IfNotPresent Never' -d 'When to pull the images: Always (default, as Arena), IfNotPresent or Never'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l device -r -F -d 'Another device resource per pod VENDOR/RESOURCE=COUNT, e.g. amd.com/gpu=1 (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l config-file -r -F -d 'Ship a host file to the pods: HOST_FILE[:/container/path] (repeatable; a ConfigMap per directory)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l rdma -d 'Request an RDMA device (rdma/hca: 1) and the IPC_LOCK capability'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l service-account -r -F -d 'ServiceAccount every pod of the job runs as (serviceAccountName), e.g. one allowed to list pods; default: the namespace'\''s default'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l hostNetwork -l host-network -d 'Pods use the node'\''s network (dnsPolicy ClusterFirstWithHostNet)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l hostIPC -l host-ipc -d 'Pods use the node'\''s IPC namespace'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l hostPID -l host-pid -d 'Pods use the node'\''s process namespace'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -s p -l priority -r -F -d 'PriorityClass of the pods'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l shell -x -a 'sh bash' -d 'Shell that runs the command: sh or bash'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l retry -r -F -d 'Retries before the job is marked failed (backoffLimit; default: the operator'\''s own)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l ttl-after-finished -r -F -d 'Delete the job this long after it ends, e.g. 1h'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l workers -r -F -d 'Number of pods, the master included'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l sync-mode -x -a 'git rsync' -d 'Fetch code before start: git or rsync'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l sync-source -r -F -d 'Git URL or rsync source of the code (lands in WORKING_DIR/code/)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l sync-image -r -F -d 'Image of the code-sync init container'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l tensorboard -d 'Run TensorBoard (Deployment + NodePort Service NAME-tensorboard)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l logdir -r -F -d 'Event directory TensorBoard reads'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l tensorboard-image -r -F -d 'TensorBoard image'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l running-timeout -r -F -d 'Stop the job after it ran this long (activeDeadlineSeconds)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l clean-task-policy -x -a 'Running All None' -d 'Pods to delete when the job ends: Running, All or None (default Running)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l share-memory -r -F -d 'Size of /dev/shm (default 2Gi)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l scheduler -r -F -d 'schedulerName of the pods, e.g. volcano'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l gang -d 'Gang-schedule the pods (runPolicy.schedulingPolicy and the coscheduling pod-group labels)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l queue -d 'Queue the job in kube-queue (Arena'\''s switch: scheduling.x-k8s.io/suspend); --queue=NAME names the gang scheduler'\''s queue (runPolicy.schedulingPolicy.queue)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l kueue-queue -r -F -d 'Kueue LocalQueue of the job (label kueue.x-k8s.io/queue-name): it waits there for quota. The submit fails, and removes the job, where Kueue does not hold the kind (Kueue v0.19 and later leave PyTorchJob and TFJob out unless the admin enables them)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l min-available -r -F -d 'Pods that must be schedulable together (default: all)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l schedule-timeout -r -F -d 'Gang scheduling timeout, e.g. 180s'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l min-resources -r -F -d 'Gang minimum resources NAME=QUANTITY (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l nproc-per-node -x -a 'auto cpu gpu' -d 'torchrun processes per pod: auto, cpu, gpu or N'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l worker-image -r -F -d 'Image of the workers, instead of --image (which the master keeps); alone, the image of every pod'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l api -x -a 'trainer training-operator none' -d 'What the job is made as, trainer a TrainJob on the ClusterTrainingRuntime torch-distributed, training-operator a PyTorchJob, none an Indexed Job + headless Service (default: a PyTorchJob, or a TrainJob where the cluster serves only Kubeflow Trainer v2): trainer, training-operator or none'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l operator -x -a 'none' -d 'none: run without the training-operator (Indexed Job + headless Service); the same as --api none'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l master-port -r -F -d 'MASTER_PORT with --operator none'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l min-workers -r -F -d 'Elastic job: fewest Worker pods it runs with (no Master)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l max-workers -r -F -d 'Elastic job: most Worker pods it runs with'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l max-restarts -r -F -d 'Elastic job: restarts of the worker group before it fails (PET_MAX_RESTARTS)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l rdzv-backend -r -F -d 'Elastic job: torchrun'\''s rendezvous backend (default c10d)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l rdzv-port -r -F -d 'Elastic job: rendezvous port on worker-0 (default 23456)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l dry-run -d 'Print the manifests (YAML stream) and send nothing'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -s o -l output -x -a 'yaml json' -d 'Format of --dry-run: yaml or json'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l wait -d 'Wait until every pod runs; --wait=finished waits until the job ends'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l timeout -r -F -d 'Give up waiting after this long, e.g. 10m'
complete -c trainctl -n '__trainctl_at '\''trainctl submit pytorch'\''' -l template-dir -r -F -d 'Directory of templates overriding the built-in ones (also TRAINCTL_TEMPLATE_DIR)'

# trainctl submit mpi
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l name -r -F -d 'Job name (required; lower-case letters, digits, '\''-'\'')'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l image -r -F -d 'Container image of the job'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l gpus -r -F -d 'GPUs per pod (nvidia.com/gpu)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l cpu -r -F -d 'CPU request and limit per pod, e.g. 4 or 500m'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l memory -r -F -d 'Memory request and limit per pod, e.g. 8Gi'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l working-dir -r -F -d 'Working directory of the command'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -s e -l env -r -F -d 'Environment variable KEY=VALUE (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -s d -l data -x -a '(__trainctl_dynamic)' -d 'Mount a PVC: PVC_NAME:/mount/path (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l data-dir -r -F -d 'Mount a host directory: /host/path[:/mount/path] (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l selector -r -F -d 'Node selector KEY=VALUE (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l toleration -r -F -d 'Toleration KEY[=VALUE][:EFFECT], or all (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -s a -l annotation -r -F -d 'Annotation KEY=VALUE on the job and its pods (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -s l -l label -r -F -d 'Label KEY=VALUE on the job and its pods (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l image-pull-secret -r -F -d 'Image pull secret name (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l image-pull-policy -x -a 'Always IfNotPresent Never' -d 'When to pull the images: Always (default, as Arena), IfNotPresent or Never'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l device -r -F -d 'Another device resource per pod VENDOR/RESOURCE=COUNT, e.g. amd.com/gpu=1 (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l config-file -r -F -d 'Ship a host file to the pods: HOST_FILE[:/container/path] (repeatable; a ConfigMap per directory)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l rdma -d 'Request an RDMA device (rdma/hca: 1) and the IPC_LOCK capability'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l service-account -r -F -d 'ServiceAccount every pod of the job runs as (serviceAccountName), e.g. one allowed to list pods; default: the namespace'\''s default'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l hostNetwork -l host-network -d 'Pods use the node'\''s network (dnsPolicy ClusterFirstWithHostNet); each worker'\''s sshd binds the node'\''s port there, so no two workers may share a node'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l hostIPC -l host-ipc -d 'Pods use the node'\''s IPC namespace'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l hostPID -l host-pid -d 'Pods use the node'\''s process namespace'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -s p -l priority -r -F -d 'PriorityClass of the pods'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l shell -x -a 'sh bash' -d 'Shell that runs the command: sh or bash'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l retry -r -F -d 'Retries before the job is marked failed (backoffLimit; default: the operator'\''s own)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l ttl-after-finished -r -F -d 'Delete the job this long after it ends, e.g. 1h'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l workers -r -F -d 'Number of worker pods (the launcher is extra)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l sync-mode -x -a 'git rsync' -d 'Fetch code before start: git or rsync'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l sync-source -r -F -d 'Git URL or rsync source of the code (lands in WORKING_DIR/code/)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l sync-image -r -F -d 'Image of the code-sync init container'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l tensorboard -d 'Run TensorBoard (Deployment + NodePort Service NAME-tensorboard)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l logdir -r -F -d 'Event directory TensorBoard reads'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l tensorboard-image -r -F -d 'TensorBoard image'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l running-timeout -r -F -d 'Stop the job after it ran this long (activeDeadlineSeconds)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l clean-task-policy -x -a 'Running All None' -d 'Pods to delete when the job ends: Running, All or None (default All)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l share-memory -r -F -d 'Size of /dev/shm (default 2Gi)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l scheduler -r -F -d 'schedulerName of the pods, e.g. volcano'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l gang -d 'Gang-schedule the pods (runPolicy.schedulingPolicy and the coscheduling pod-group labels)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l queue -d 'Queue the job in kube-queue (Arena'\''s switch: scheduling.x-k8s.io/suspend); --queue=NAME names the gang scheduler'\''s queue (runPolicy.schedulingPolicy.queue)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l kueue-queue -r -F -d 'Kueue LocalQueue of the job (label kueue.x-k8s.io/queue-name): it waits there for quota. The submit fails, and removes the job, where Kueue does not hold the kind (Kueue v0.19 and later leave PyTorchJob and TFJob out unless the admin enables them)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l min-available -r -F -d 'Pods that must be schedulable together (default: all)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l schedule-timeout -r -F -d 'Gang scheduling timeout, e.g. 180s'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l min-resources -r -F -d 'Gang minimum resources NAME=QUANTITY (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l gputopology -d 'ACK'\''s topology-aware GPU placement: workers request aliyun.com/gpu and carry the gpu-topology labels, with no /dev/shm volume; pods stay on the pod network (Arena'\''s hostNetwork is not set: workers run sshd, and two on one node'\''s network cannot both bind its port)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l slots-per-worker -r -F -d 'MPI slots per worker (default: GPUs, at least 1)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l launcher-cpu -r -F -d 'CPU request and limit of the launcher (default: none)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l launcher-memory -r -F -d 'Memory request and limit of the launcher (default: none)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l dry-run -d 'Print the manifests (YAML stream) and send nothing'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -s o -l output -x -a 'yaml json' -d 'Format of --dry-run: yaml or json'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l wait -d 'Wait until every pod runs; --wait=finished waits until the job ends'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l timeout -r -F -d 'Give up waiting after this long, e.g. 10m'
complete -c trainctl -n '__trainctl_at '\''trainctl submit mpi'\''' -l template-dir -r -F -d 'Directory of templates overriding the built-in ones (also TRAINCTL_TEMPLATE_DIR)'

# trainctl submit volcano
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l name -r -F -d 'Job name (required; lower-case letters, digits, '\''-'\'')'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l image -r -F -d 'Container image of the job'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l gpus -r -F -d 'GPUs per pod (nvidia.com/gpu)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l cpu -r -F -d 'CPU request and limit per pod, e.g. 4 or 500m'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l memory -r -F -d 'Memory request and limit per pod, e.g. 8Gi'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l working-dir -r -F -d 'Working directory of the command'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -s e -l env -r -F -d 'Environment variable KEY=VALUE (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -s d -l data -x -a '(__trainctl_dynamic)' -d 'Mount a PVC: PVC_NAME:/mount/path (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l data-dir -r -F -d 'Mount a host directory: /host/path[:/mount/path] (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l selector -r -F -d 'Node selector KEY=VALUE (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l toleration -r -F -d 'Toleration KEY[=VALUE][:EFFECT], or all (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -s a -l annotation -r -F -d 'Annotation KEY=VALUE on the job and its pods (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -s l -l label -r -F -d 'Label KEY=VALUE on the job and its pods (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l image-pull-secret -r -F -d 'Image pull secret name (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l image-pull-policy -x -a 'Always IfNotPresent Never' -d 'When to pull the images: Always (default, as Arena), IfNotPresent or Never'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l device -r -F -d 'Another device resource per pod VENDOR/RESOURCE=COUNT, e.g. amd.com/gpu=1 (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l config-file -r -F -d 'Ship a host file to the pods: HOST_FILE[:/container/path] (repeatable; a ConfigMap per directory)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l rdma -d 'Request an RDMA device (rdma/hca: 1) and the IPC_LOCK capability'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l service-account -r -F -d 'ServiceAccount every pod of the job runs as (serviceAccountName), e.g. one allowed to list pods; default: the namespace'\''s default'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l hostNetwork -l host-network -d 'Pods use the node'\''s network (dnsPolicy ClusterFirstWithHostNet)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l hostIPC -l host-ipc -d 'Pods use the node'\''s IPC namespace'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l hostPID -l host-pid -d 'Pods use the node'\''s process namespace'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -s p -l priority -r -F -d 'PriorityClass of the pods'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l shell -x -a 'sh bash' -d 'Shell that runs the command: sh or bash'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l retry -r -F -d 'Retries before the job is marked failed (backoffLimit; default: the operator'\''s own)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l ttl-after-finished -r -F -d 'Delete the job this long after it ends, e.g. 1h'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l task -r -F -d 'Task NAME:REPLICAS[:IMAGE[:COMMAND]] (repeatable; default image and command: --image and the positional command)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l task-images -r -F -d 'Arena style: one task per image, named TASK-NAME-I (comma-separated or repeated)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l task-label -r -F -d 'Label on one task'\''s pods TASK:KEY=VALUE, e.g. pserver:paddle-job-pserver=fluid-ctr (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l task-policy -r -F -d 'Policy of one task TASK:EVENT=ACTION, e.g. trainer:TaskCompleted=CompleteJob (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l policy -r -F -d 'Job policy EVENT=ACTION, replacing the default PodEvicted=RestartJob and PodFailed=RestartJob (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l task-replicas -r -F -d 'Arena style: replicas of each --task-images task'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l task-name -r -F -d 'Arena style: name (prefix) of the tasks'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l task-cpu -r -F -d 'Arena style: same as --cpu'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l task-memory -r -F -d 'Arena style: same as --memory'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l task-port -r -F -d 'Container port of every task'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l min-available -r -F -d 'Pods that must be schedulable together (default: all)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l queue -r -F -d 'Volcano queue (default: default)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l scheduler-name -r -F -d 'schedulerName (default volcano)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l dry-run -d 'Print the manifests (YAML stream) and send nothing'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -s o -l output -x -a 'yaml json' -d 'Format of --dry-run: yaml or json'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l wait -d 'Wait until every pod runs; --wait=finished waits until the job ends'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l timeout -r -F -d 'Give up waiting after this long, e.g. 10m'
complete -c trainctl -n '__trainctl_at '\''trainctl submit volcano'\''' -l template-dir -r -F -d 'Directory of templates overriding the built-in ones (also TRAINCTL_TEMPLATE_DIR)'

# trainctl submit tf
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l name -r -F -d 'Job name (required; lower-case letters, digits, '\''-'\'')'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l image -r -F -d 'Container image of the job'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l gpus -r -F -d 'GPUs per worker, chief and evaluator (nvidia.com/gpu; the parameter servers take --ps-gpus)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l cpu -r -F -d 'CPU request and limit per pod, e.g. 4 or 500m'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l memory -r -F -d 'Memory request and limit per pod, e.g. 8Gi'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l working-dir -r -F -d 'Working directory of the command'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -s e -l env -r -F -d 'Environment variable KEY=VALUE (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -s d -l data -x -a '(__trainctl_dynamic)' -d 'Mount a PVC: PVC_NAME:/mount/path (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l data-dir -r -F -d 'Mount a host directory: /host/path[:/mount/path] (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l selector -r -F -d 'Node selector KEY=VALUE (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l toleration -r -F -d 'Toleration KEY[=VALUE][:EFFECT], or all (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -s a -l annotation -r -F -d 'Annotation KEY=VALUE on the job and its pods (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -s l -l label -r -F -d 'Label KEY=VALUE on the job and its pods (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l image-pull-secret -r -F -d 'Image pull secret name (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l image-pull-policy -x -a 'Always IfNotPresent Never' -d 'When to pull the images: Always (default, as Arena), IfNotPresent or Never'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l device -r -F -d 'Another device resource per pod VENDOR/RESOURCE=COUNT, e.g. amd.com/gpu=1 (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l config-file -r -F -d 'Ship a host file to the pods: HOST_FILE[:/container/path] (repeatable; a ConfigMap per directory)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l rdma -d 'Request an RDMA device (rdma/hca: 1) and the IPC_LOCK capability'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l service-account -r -F -d 'ServiceAccount every pod of the job runs as (serviceAccountName), e.g. one allowed to list pods; default: the namespace'\''s default'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l hostNetwork -l host-network -d 'Pods use the node'\''s network (dnsPolicy ClusterFirstWithHostNet)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l hostIPC -l host-ipc -d 'Pods use the node'\''s IPC namespace'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l hostPID -l host-pid -d 'Pods use the node'\''s process namespace'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -s p -l priority -r -F -d 'PriorityClass of the pods'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l shell -x -a 'sh bash' -d 'Shell that runs the command: sh or bash'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l retry -r -F -d 'Retries before the job is marked failed (backoffLimit; default: the operator'\''s own)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l ttl-after-finished -r -F -d 'Delete the job this long after it ends, e.g. 1h'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l workers -r -F -d 'Number of Worker replicas (the PS, chief and evaluator are extra)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l sync-mode -x -a 'git rsync' -d 'Fetch code before start: git or rsync'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l sync-source -r -F -d 'Git URL or rsync source of the code (lands in WORKING_DIR/code/)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l sync-image -r -F -d 'Image of the code-sync init container'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l tensorboard -d 'Run TensorBoard (Deployment + NodePort Service NAME-tensorboard)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l logdir -r -F -d 'Event directory TensorBoard reads'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l tensorboard-image -r -F -d 'TensorBoard image'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l running-timeout -r -F -d 'Stop the job after it ran this long (activeDeadlineSeconds)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l clean-task-policy -x -a 'Running All None' -d 'Pods to delete when the job ends: Running, All or None (default Running)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l share-memory -r -F -d 'Size of /dev/shm (default 2Gi)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l scheduler -r -F -d 'schedulerName of the pods, e.g. volcano'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l gang -d 'Gang-schedule the pods (runPolicy.schedulingPolicy and the coscheduling pod-group labels)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l queue -d 'Queue the job in kube-queue (Arena'\''s switch: scheduling.x-k8s.io/suspend); --queue=NAME names the gang scheduler'\''s queue (runPolicy.schedulingPolicy.queue)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l kueue-queue -r -F -d 'Kueue LocalQueue of the job (label kueue.x-k8s.io/queue-name): it waits there for quota. The submit fails, and removes the job, where Kueue does not hold the kind (Kueue v0.19 and later leave PyTorchJob and TFJob out unless the admin enables them)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l min-available -r -F -d 'Pods that must be schedulable together (default: all)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l schedule-timeout -r -F -d 'Gang scheduling timeout, e.g. 180s'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l min-resources -r -F -d 'Gang minimum resources NAME=QUANTITY (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l worker-image -r -F -d 'Image of the workers, the chief and the evaluator, instead of --image (which the parameter servers keep unless --ps-image); alone, the image of every pod'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l dry-run -d 'Print the manifests (YAML stream) and send nothing'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -s o -l output -x -a 'yaml json' -d 'Format of --dry-run: yaml or json'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l wait -d 'Wait until every pod runs; --wait=finished waits until the job ends'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l timeout -r -F -d 'Give up waiting after this long, e.g. 10m'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l template-dir -r -F -d 'Directory of templates overriding the built-in ones (also TRAINCTL_TEMPLATE_DIR)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l ps -r -F -d 'Number of parameter servers (PS replicas)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l ps-image -r -F -d 'Image of the parameter servers (default: --image)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l ps-gpus -r -F -d 'GPUs per parameter server (--gpus is not theirs)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l ps-port -r -F -d 'Port tfjob-port of the parameter servers, on the container tensorflow that the training-operator configures (default: the operator'\''s 2222; Arena picks a free port)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l ps-cpu -r -F -d 'CPU request and limit of the parameter servers (default: --cpu)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l ps-memory -r -F -d 'Memory request and limit of the parameter servers (default: --memory)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l ps-selector -r -F -d 'Node selector KEY=VALUE of the parameter servers, instead of --selector (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l worker-port -r -F -d 'Port tfjob-port of the workers, on the container tensorflow that the training-operator configures (default: the operator'\''s 2222; Arena picks a free port)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l worker-cpu -r -F -d 'CPU request and limit of the workers (default: --cpu)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l worker-memory -r -F -d 'Memory request and limit of the workers (default: --memory)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l worker-selector -r -F -d 'Node selector KEY=VALUE of the workers, instead of --selector (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l chief -d 'Add a Chief replica (TensorFlow Estimator'\''s chief; it decides when the job succeeded)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l chief-port -r -F -d 'Port tfjob-port of the chief, on the container tensorflow that the training-operator configures (default: the operator'\''s 2222; Arena picks a free port)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l chief-cpu -r -F -d 'CPU request and limit of the chief (default: --cpu)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l chief-memory -r -F -d 'Memory request and limit of the chief (default: --memory)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l chief-selector -r -F -d 'Node selector KEY=VALUE of the chief, instead of --selector (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l evaluator -d 'Add an Evaluator replica (TensorFlow Estimator'\''s evaluator)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l evaluator-port -r -F -d 'Port tfjob-port of the evaluator, on the container tensorflow that the training-operator configures (default: the operator'\''s 2222; Arena picks a free port)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l evaluator-cpu -r -F -d 'CPU request and limit of the evaluator (default: --cpu)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l evaluator-memory -r -F -d 'Memory request and limit of the evaluator (default: --memory)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l evaluator-selector -r -F -d 'Node selector KEY=VALUE of the evaluator, instead of --selector (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit tf'\''' -l success-policy -r -F -d 'When the job succeeded: ChiefWorker (the chief, else worker 0, succeeded; the operator'\''s default) or AllWorkers'

# trainctl submit trainjob
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l name -r -F -d 'TrainJob name (required; lower-case letters, digits, '\''-'\'')'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l runtime -r -F -d 'The runtime the job runs on (spec.runtimeRef.name; required; see trainctl runtime list)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l runtime-kind -x -a 'ClusterTrainingRuntime TrainingRuntime' -d 'Kind of the runtime, a TrainingRuntime being the namespace'\''s: ClusterTrainingRuntime or TrainingRuntime'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l image -r -F -d 'Image of the training nodes (trainer.image; default: the runtime'\''s)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l workers -r -F -d 'Number of training nodes (trainer.numNodes)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l gpus -r -F -d 'GPUs per node (trainer.resourcesPerNode, nvidia.com/gpu)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l cpu -r -F -d 'CPU request and limit per node, e.g. 4 or 500m'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l memory -r -F -d 'Memory request and limit per node, e.g. 8Gi'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l device -r -F -d 'Another device resource per node VENDOR/RESOURCE=COUNT (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l nproc-per-node -x -a 'auto' -d 'Processes per node (trainer.numProcPerNode): N, or auto'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -s e -l env -r -F -d 'Environment variable KEY=VALUE of the trainer (trainer.env; repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l working-dir -r -F -d 'Directory the command runs in'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l shell -x -a 'sh bash' -d 'Shell that runs the command: sh or bash'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l sync-mode -r -F -d 'Fetch code before start: git or rsync (the job then runs on a TrainingRuntime NAME-code-sync of its own, a copy of --runtime with the code-sync init container, deleted with the job)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l sync-source -r -F -d 'Git URL or rsync source of the code (lands in WORKING_DIR/code/)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l sync-image -r -F -d 'Image of the code-sync init container'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l arg -r -F -d 'An argument of the runtime'\''s command (trainer.args; repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -s d -l data -x -a '(__trainctl_dynamic)' -d 'Mount a PVC on the nodes: PVC_NAME:/mount/path (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l data-dir -r -F -d 'Mount a host directory: /host/path[:/mount/path] (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l selector -r -F -d 'Node selector KEY=VALUE of the pods (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l toleration -r -F -d 'Toleration KEY[=VALUE][:EFFECT], or all (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -s a -l annotation -r -F -d 'Annotation KEY=VALUE on the TrainJob and its pods (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -s l -l label -r -F -d 'Label KEY=VALUE on the TrainJob and its pods (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l image-pull-secret -r -F -d 'Image pull secret name (repeatable)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l service-account -r -F -d 'ServiceAccount of the pods (serviceAccountName)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l dataset-uri -r -F -d 'Dataset the runtime'\''s dataset initializer fetches, e.g. hf://tatsu-lab/alpaca'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l model-uri -r -F -d 'Model the runtime'\''s model initializer fetches, e.g. hf://meta-llama/Llama-3.2-1B-Instruct'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l tensorboard -d 'Run TensorBoard (Deployment + NodePort Service NAME-tensorboard)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l logdir -r -F -d 'Event directory TensorBoard reads'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l tensorboard-image -r -F -d 'TensorBoard image'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l running-timeout -r -F -d 'Stop the job after it ran this long (activeDeadlineSeconds)'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l kueue-queue -r -F -d 'Kueue LocalQueue of the TrainJob (label kueue.x-k8s.io/queue-name): it waits there for quota'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l dry-run -d 'Print the manifests (YAML stream) and send nothing'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -s o -l output -x -a 'yaml json' -d 'Format of --dry-run: yaml or json'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l wait -d 'Wait until every pod runs; --wait=finished waits until the job ends'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l timeout -r -F -d 'Give up waiting after this long, e.g. 10m'
complete -c trainctl -n '__trainctl_at '\''trainctl submit trainjob'\''' -l template-dir -r -F -d 'Directory of templates overriding the built-in ones (also TRAINCTL_TEMPLATE_DIR)'

# trainctl list
complete -c trainctl -n '__trainctl_at '\''trainctl list'\''' -s A -l all-namespaces -d 'List jobs in all namespaces'
complete -c trainctl -n '__trainctl_at '\''trainctl list'\''' -s T -l type -x -a 'pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj' -d 'Only jobs of this type: pytorchjob (pytorch, py), mpijob (mpi, mj), volcanojob (volcano, vj), tfjob (tensorflow, tf) or trainjob (tj)'
complete -c trainctl -n '__trainctl_at '\''trainctl list'\''' -s o -l output -x -a 'wide json yaml name' -d 'Output format: wide (default), json, yaml or name'
complete -c trainctl -n '__trainctl_at '\''trainctl list'\''' -l idle -d 'Only running jobs holding GPUs that sat idle for the whole --idle-window (needs Prometheus)'
complete -c trainctl -n '__trainctl_at '\''trainctl list'\''' -l idle-window -r -F -d 'How long a GPU must have been idle'
complete -c trainctl -n '__trainctl_at '\''trainctl list'\''' -l idle-threshold -r -F -d 'Utilisation (%) under which a GPU is idle'
complete -c trainctl -n '__trainctl_at '\''trainctl list'\''' -s w -l watch -d 'After the list, print a row for every job that changes (from a watch), until Ctrl-C'
complete -c trainctl -n '__trainctl_at '\''trainctl list'\''' -f

# trainctl get
complete -c trainctl -n '__trainctl_at '\''trainctl get'\''' -s e -l events -d 'Also show the events of the job and its instances'
complete -c trainctl -n '__trainctl_at '\''trainctl get'\''' -s g -l gpus -d 'Also show the GPUs of its instances: utilisation and memory (Prometheus)'
complete -c trainctl -n '__trainctl_at '\''trainctl get'\''' -l idle-window -r -F -d 'How long a GPU must have been idle'
complete -c trainctl -n '__trainctl_at '\''trainctl get'\''' -l idle-threshold -r -F -d 'Utilisation (%) under which a GPU is idle'
complete -c trainctl -n '__trainctl_at '\''trainctl get'\''' -s T -l type -x -a 'pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj' -d 'Job type, when two kinds have a job of this name: pytorchjob (pytorch, py), mpijob (mpi, mj), volcanojob (volcano, vj), tfjob (tensorflow, tf) or trainjob (tj)'
complete -c trainctl -n '__trainctl_at '\''trainctl get'\''' -s o -l output -x -a 'wide json yaml name' -d 'Output format: wide (default), json, yaml or name'
complete -c trainctl -n '__trainctl_at '\''trainctl get'\''' -f -a '(__trainctl_dynamic)'

# trainctl logs
complete -c trainctl -n '__trainctl_at '\''trainctl logs'\''' -s i -l instance -x -a '(__trainctl_dynamic)' -d 'Instance: its pod name or the start of it, its replica (worker-1) or its rank (1); default: the chief instance'
complete -c trainctl -n '__trainctl_at '\''trainctl logs'\''' -s c -l container -r -F -d 'Container; default: the main one (init-code while initializing)'
complete -c trainctl -n '__trainctl_at '\''trainctl logs'\''' -s f -l follow -d 'Follow the log until the instance ends; exit 5 when it failed'
complete -c trainctl -n '__trainctl_at '\''trainctl logs'\''' -s t -l tail -r -F -d 'Only the last N lines (-1: all)'
complete -c trainctl -n '__trainctl_at '\''trainctl logs'\''' -l since -r -F -d 'Only lines newer than a relative duration, e.g. 5s, 2m, 3h'
complete -c trainctl -n '__trainctl_at '\''trainctl logs'\''' -l since-time -r -F -d 'Only lines after an RFC 3339 time'
complete -c trainctl -n '__trainctl_at '\''trainctl logs'\''' -l timestamps -d 'Prefix each line with its RFC 3339 timestamp'
complete -c trainctl -n '__trainctl_at '\''trainctl logs'\''' -s T -l type -x -a 'pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj' -d 'Job type when two kinds share the name: pytorchjob (pytorch, py), mpijob (mpi, mj), volcanojob (volcano, vj), tfjob (tensorflow, tf) or trainjob (tj)'
complete -c trainctl -n '__trainctl_at '\''trainctl logs'\''' -s a -l all -d 'Every instance'\''s log, each line prefixed with its replica (worker-1); with -f all at once until the job ends, exit 5 when it failed'
complete -c trainctl -n '__trainctl_at '\''trainctl logs'\''' -l role -r -F -d 'With --all: only replicas of this role (master, worker, ps, chief, evaluator, launcher, or a Volcano task)'
complete -c trainctl -n '__trainctl_at '\''trainctl logs'\''' -l rank -r -F -d 'With --all: only replicas of this index (worker-1 has rank 1)'
complete -c trainctl -n '__trainctl_at '\''trainctl logs'\''' -l prefix -d 'With --all: prefix each line with its replica; --prefix=false: no prefix'
complete -c trainctl -n '__trainctl_at '\''trainctl logs'\''' -f -a '(__trainctl_dynamic)'

# trainctl top
complete -c trainctl -n '__trainctl_at '\''trainctl top'\''' -f -a node -d 'Show GPU capacity and allocation per node'
complete -c trainctl -n '__trainctl_at '\''trainctl top'\''' -f -a job -d 'Show GPU requests and allocation per job'
complete -c trainctl -n '__trainctl_at '\''trainctl top'\''' -f -a queue -d 'Show Volcano Queues and Kueue ClusterQueues and LocalQueues'
complete -c trainctl -n '__trainctl_at '\''trainctl top'\''' -f

# trainctl top node
complete -c trainctl -n '__trainctl_at '\''trainctl top node'\''' -s d -l details -d 'Per node: its GPU instances and a GPU summary'
complete -c trainctl -n '__trainctl_at '\''trainctl top node'\''' -s o -l output -x -a 'wide json yaml' -d 'Output format: wide (default), json or yaml'
complete -c trainctl -n '__trainctl_at '\''trainctl top node'\''' -l idle-window -r -F -d 'How long a GPU must have been idle'
complete -c trainctl -n '__trainctl_at '\''trainctl top node'\''' -l idle-threshold -r -F -d 'Utilisation (%) under which a GPU is idle'
complete -c trainctl -n '__trainctl_at '\''trainctl top node'\''' -s r -l refresh -d 'Show it again every SECONDS (2 when given alone) from a watch, until Ctrl-C'
complete -c trainctl -n '__trainctl_at '\''trainctl top node'\''' -f -a '(__trainctl_dynamic)'

# trainctl top job
complete -c trainctl -n '__trainctl_at '\''trainctl top job'\''' -s i -l instance -x -a '(__trainctl_dynamic)' -d 'With a job name: only this instance (its pod name or the start of it, its replica or rank)'
complete -c trainctl -n '__trainctl_at '\''trainctl top job'\''' -s A -l all-namespaces -d 'Jobs of all namespaces'
complete -c trainctl -n '__trainctl_at '\''trainctl top job'\''' -s T -l type -x -a 'pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj' -d 'Only jobs of this type: pytorchjob (pytorch, py), mpijob (mpi, mj), volcanojob (volcano, vj), tfjob (tensorflow, tf) or trainjob (tj)'
complete -c trainctl -n '__trainctl_at '\''trainctl top job'\''' -s o -l output -x -a 'wide json yaml' -d 'Output format: wide (default), json or yaml'
complete -c trainctl -n '__trainctl_at '\''trainctl top job'\''' -l idle-window -r -F -d 'How long a GPU must have been idle'
complete -c trainctl -n '__trainctl_at '\''trainctl top job'\''' -l idle-threshold -r -F -d 'Utilisation (%) under which a GPU is idle'
complete -c trainctl -n '__trainctl_at '\''trainctl top job'\''' -s r -l refresh -d 'Show it again every SECONDS (2 when given alone) from a watch, until Ctrl-C'

# trainctl top queue
complete -c trainctl -n '__trainctl_at '\''trainctl top queue'\''' -l pending -d 'Also the pending workloads of each ClusterQueue, with their positions'
complete -c trainctl -n '__trainctl_at '\''trainctl top queue'\''' -s A -l all-namespaces -d 'LocalQueues of every namespace'
complete -c trainctl -n '__trainctl_at '\''trainctl top queue'\''' -s o -l output -x -a 'table json yaml' -d 'Output format: table (default), json or yaml'
complete -c trainctl -n '__trainctl_at '\''trainctl top queue'\''' -f

# trainctl data
complete -c trainctl -n '__trainctl_at '\''trainctl data'\''' -f -a list -d 'List the PVCs usable with --data'
complete -c trainctl -n '__trainctl_at '\''trainctl data'\''' -f -a ls -d 'alias of list: List the PVCs usable with --data'
complete -c trainctl -n '__trainctl_at '\''trainctl data'\''' -f

# trainctl data list
complete -c trainctl -n '__trainctl_at '\''trainctl data list'\''' -s A -l all-namespaces -d 'PVCs of all namespaces'
complete -c trainctl -n '__trainctl_at '\''trainctl data list'\''' -s o -l output -x -a 'wide json yaml' -d 'Output format: wide (default), json or yaml'
complete -c trainctl -n '__trainctl_at '\''trainctl data list'\''' -f

# trainctl queue
complete -c trainctl -n '__trainctl_at '\''trainctl queue'\''' -f -a list -d 'Show Volcano Queues and Kueue ClusterQueues and LocalQueues'
complete -c trainctl -n '__trainctl_at '\''trainctl queue'\''' -f -a pending -d 'Show the pending workloads of a Kueue ClusterQueue, in queue order'
complete -c trainctl -n '__trainctl_at '\''trainctl queue'\''' -f

# trainctl queue list
complete -c trainctl -n '__trainctl_at '\''trainctl queue list'\''' -l pending -d 'Also the pending workloads of each ClusterQueue, with their positions'
complete -c trainctl -n '__trainctl_at '\''trainctl queue list'\''' -s A -l all-namespaces -d 'LocalQueues of every namespace'
complete -c trainctl -n '__trainctl_at '\''trainctl queue list'\''' -s o -l output -x -a 'table json yaml' -d 'Output format: table (default), json or yaml'
complete -c trainctl -n '__trainctl_at '\''trainctl queue list'\''' -f

# trainctl queue pending
complete -c trainctl -n '__trainctl_at '\''trainctl queue pending'\''' -s o -l output -x -a 'table json yaml' -d 'Output format: table (default), json or yaml'

# trainctl runtime
complete -c trainctl -n '__trainctl_at '\''trainctl runtime'\''' -f -a list -d 'List the ClusterTrainingRuntimes and the namespace'\''s TrainingRuntimes (Kubeflow Trainer v2)'
complete -c trainctl -n '__trainctl_at '\''trainctl runtime'\''' -f -a ls -d 'alias of list: List the ClusterTrainingRuntimes and the namespace'\''s TrainingRuntimes (Kubeflow Trainer v2)'
complete -c trainctl -n '__trainctl_at '\''trainctl runtime'\''' -f

# trainctl runtime list
complete -c trainctl -n '__trainctl_at '\''trainctl runtime list'\''' -s o -l output -x -a 'table wide json yaml' -d 'Output format: table (default), wide, json or yaml'
complete -c trainctl -n '__trainctl_at '\''trainctl runtime list'\''' -l all -d 'Also the TrainingRuntimes of one job (the copy submit --sync-mode makes for a TrainJob, deleted with it): what each copies and its job'
complete -c trainctl -n '__trainctl_at '\''trainctl runtime list'\''' -f

# trainctl delete
complete -c trainctl -n '__trainctl_at '\''trainctl delete'\''' -s T -l type -x -a 'pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj' -d 'Job type when two kinds share a name: pytorchjob (pytorch, py), mpijob (mpi, mj), volcanojob (volcano, vj), tfjob (tensorflow, tf) or trainjob (tj)'
complete -c trainctl -n '__trainctl_at '\''trainctl delete'\''' -f -a '(__trainctl_dynamic)'

# trainctl suspend
complete -c trainctl -n '__trainctl_at '\''trainctl suspend'\''' -s T -l type -x -a 'pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj' -d 'Job type when two kinds share a name: pytorchjob (pytorch, py), mpijob (mpi, mj), volcanojob (volcano, vj), tfjob (tensorflow, tf) or trainjob (tj)'
complete -c trainctl -n '__trainctl_at '\''trainctl suspend'\''' -f -a '(__trainctl_dynamic)'

# trainctl resume
complete -c trainctl -n '__trainctl_at '\''trainctl resume'\''' -s T -l type -x -a 'pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj' -d 'Job type when two kinds share a name: pytorchjob (pytorch, py), mpijob (mpi, mj), volcanojob (volcano, vj), tfjob (tensorflow, tf) or trainjob (tj)'
complete -c trainctl -n '__trainctl_at '\''trainctl resume'\''' -f -a '(__trainctl_dynamic)'

# trainctl wait
complete -c trainctl -n '__trainctl_at '\''trainctl wait'\''' -l for -x -a 'running finished' -d 'running: until the job is RUNNING (or has finished); finished: until it ends'
complete -c trainctl -n '__trainctl_at '\''trainctl wait'\''' -l timeout -r -F -d 'Give up after this long (e.g. 90s, 10m): exit 6, or 7 when a pod cannot be scheduled'
complete -c trainctl -n '__trainctl_at '\''trainctl wait'\''' -s T -l type -x -a 'pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj' -d 'Job type, when two kinds have a job of this name: pytorchjob (pytorch, py), mpijob (mpi, mj), volcanojob (volcano, vj), tfjob (tensorflow, tf) or trainjob (tj)'
complete -c trainctl -n '__trainctl_at '\''trainctl wait'\''' -s o -l output -x -a 'table json' -d 'Output format: table (default) or json'
complete -c trainctl -n '__trainctl_at '\''trainctl wait'\''' -f -a '(__trainctl_dynamic)'

# trainctl doctor
complete -c trainctl -n '__trainctl_at '\''trainctl doctor'\''' -s T -l type -x -a 'pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj' -d 'The kind whose readiness decides the exit code (default pytorchjob): pytorchjob (pytorch, py), mpijob (mpi, mj), volcanojob (volcano, vj), tfjob (tensorflow, tf) or trainjob (tj)'
complete -c trainctl -n '__trainctl_at '\''trainctl doctor'\''' -s o -l output -x -a 'table json yaml' -d 'Output format: table (default), json or yaml'
complete -c trainctl -n '__trainctl_at '\''trainctl doctor'\''' -f

# trainctl completion
complete -c trainctl -n '__trainctl_at '\''trainctl completion'\''' -f -a 'bash zsh fish'

# trainctl version
complete -c trainctl -n '__trainctl_at '\''trainctl version'\''' -s o -l output -x -a 'json' -d 'Output format: json'
complete -c trainctl -n '__trainctl_at '\''trainctl version'\''' -l short -d 'Print only the version number'
complete -c trainctl -n '__trainctl_at '\''trainctl version'\''' -f

# trainctl templates
complete -c trainctl -n '__trainctl_at '\''trainctl templates'\''' -f -a export -d 'Write the built-in templates into a directory'
complete -c trainctl -n '__trainctl_at '\''trainctl templates'\''' -f

# trainctl templates export
complete -c trainctl -n '__trainctl_at '\''trainctl templates export'\''' -l force -d 'Overwrite existing files'

# trainctl config
complete -c trainctl -n '__trainctl_at '\''trainctl config'\''' -f -a view -d 'Print the settings read from the config file and the effective namespace'
complete -c trainctl -n '__trainctl_at '\''trainctl config'\''' -f

# trainctl config view
complete -c trainctl -n '__trainctl_at '\''trainctl config view'\''' -s o -l output -x -a 'yaml json' -d 'Output format: yaml (default) or json'
complete -c trainctl -n '__trainctl_at '\''trainctl config view'\''' -f
