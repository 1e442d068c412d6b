# bash completion for trainctl                            -*- shell-script -*-
# Generated from the command tree by `trainctl completion bash`; do not edit.
# Install: source <(trainctl completion bash), or save it as
# /usr/share/bash-completion/completions/trainctl. Job, instance, namespace, PVC and
# node names and kubeconfig contexts come from `trainctl __complete`.

declare -gA __trainctl_commands=(
    ['trainctl']='submit list get logs top data queue runtime delete suspend resume wait doctor completion version templates config'
    ['trainctl submit']='pytorch mpi volcano tf trainjob'
    ['trainctl top']='node job queue'
    ['trainctl data']='list'
    ['trainctl queue']='list pending'
    ['trainctl runtime']='list'
    ['trainctl templates']='export'
    ['trainctl config']='view'
)
declare -gA __trainctl_aliases=(
    ['trainctl']='ls log del'
    ['trainctl submit']='pytorchjob mpijob volcanojob tfjob tj'
    ['trainctl data']='ls'
    ['trainctl runtime']='ls'
)
declare -gA __trainctl_children=(
    ['trainctl submit']=submit
    ['trainctl list']=list
    ['trainctl ls']=list
    ['trainctl get']=get
    ['trainctl logs']=logs
    ['trainctl log']=logs
    ['trainctl top']=top
    ['trainctl data']=data
    ['trainctl queue']=queue
    ['trainctl runtime']=runtime
    ['trainctl delete']=delete
    ['trainctl del']=delete
    ['trainctl suspend']=suspend
    ['trainctl resume']=resume
    ['trainctl wait']=wait
    ['trainctl doctor']=doctor
    ['trainctl completion']=completion
    ['trainctl version']=version
    ['trainctl templates']=templates
    ['trainctl config']=config
    ['trainctl submit pytorch']=pytorch
    ['trainctl submit pytorchjob']=pytorch
    ['trainctl submit mpi']=mpi
    ['trainctl submit mpijob']=mpi
    ['trainctl submit volcano']=volcano
    ['trainctl submit volcanojob']=volcano
    ['trainctl submit tf']=tf
    ['trainctl submit tfjob']=tf
    ['trainctl submit trainjob']=trainjob
    ['trainctl submit tj']=trainjob
    ['trainctl top node']=node
    ['trainctl top job']=job
    ['trainctl top queue']=queue
    ['trainctl data list']=list
    ['trainctl data ls']=list
    ['trainctl queue list']=list
    ['trainctl queue pending']=pending
    ['trainctl runtime list']=list
    ['trainctl runtime ls']=list
    ['trainctl templates export']=export
    ['trainctl config view']=view
)
declare -gA __trainctl_flags=(
    ['trainctl']='-h --help --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl submit']='-h --help --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl submit pytorch']='-h --help --name --image --gpus --cpu --memory --working-dir -e --env -d --data --data-dir --selector --toleration -a --annotation -l --label --image-pull-secret --image-pull-policy --device --config-file --rdma --service-account --hostNetwork --host-network --hostIPC --host-ipc --hostPID --host-pid -p --priority --shell --retry --ttl-after-finished --workers --sync-mode --sync-source --sync-image --tensorboard --logdir --tensorboard-image --running-timeout --clean-task-policy --share-memory --scheduler --gang --queue --kueue-queue --min-available --schedule-timeout --min-resources --nproc-per-node --worker-image --api --operator --master-port --min-workers --max-workers --max-restarts --rdzv-backend --rdzv-port --dry-run -o --output --wait --timeout --template-dir --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl submit mpi']='-h --help --name --image --gpus --cpu --memory --working-dir -e --env -d --data --data-dir --selector --toleration -a --annotation -l --label --image-pull-secret --image-pull-policy --device --config-file --rdma --service-account --hostNetwork --host-network --hostIPC --host-ipc --hostPID --host-pid -p --priority --shell --retry --ttl-after-finished --workers --sync-mode --sync-source --sync-image --tensorboard --logdir --tensorboard-image --running-timeout --clean-task-policy --share-memory --scheduler --gang --queue --kueue-queue --min-available --schedule-timeout --min-resources --gputopology --slots-per-worker --launcher-cpu --launcher-memory --dry-run -o --output --wait --timeout --template-dir --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl submit volcano']='-h --help --name --image --gpus --cpu --memory --working-dir -e --env -d --data --data-dir --selector --toleration -a --annotation -l --label --image-pull-secret --image-pull-policy --device --config-file --rdma --service-account --hostNetwork --host-network --hostIPC --host-ipc --hostPID --host-pid -p --priority --shell --retry --ttl-after-finished --task --task-images --task-label --task-policy --policy --task-replicas --task-name --task-cpu --task-memory --task-port --min-available --queue --scheduler-name --dry-run -o --output --wait --timeout --template-dir --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl submit tf']='-h --help --name --image --gpus --cpu --memory --working-dir -e --env -d --data --data-dir --selector --toleration -a --annotation -l --label --image-pull-secret --image-pull-policy --device --config-file --rdma --service-account --hostNetwork --host-network --hostIPC --host-ipc --hostPID --host-pid -p --priority --shell --retry --ttl-after-finished --workers --sync-mode --sync-source --sync-image --tensorboard --logdir --tensorboard-image --running-timeout --clean-task-policy --share-memory --scheduler --gang --queue --kueue-queue --min-available --schedule-timeout --min-resources --worker-image --dry-run -o --output --wait --timeout --template-dir --ps --ps-image --ps-gpus --ps-port --ps-cpu --ps-memory --ps-selector --worker-port --worker-cpu --worker-memory --worker-selector --chief --chief-port --chief-cpu --chief-memory --chief-selector --evaluator --evaluator-port --evaluator-cpu --evaluator-memory --evaluator-selector --success-policy --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl submit trainjob']='-h --help --name --runtime --runtime-kind --image --workers --gpus --cpu --memory --device --nproc-per-node -e --env --working-dir --shell --sync-mode --sync-source --sync-image --arg -d --data --data-dir --selector --toleration -a --annotation -l --label --image-pull-secret --service-account --dataset-uri --model-uri --tensorboard --logdir --tensorboard-image --running-timeout --kueue-queue --dry-run -o --output --wait --timeout --template-dir --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl list']='-h --help -A --all-namespaces -T --type -o --output --idle --idle-window --idle-threshold -w --watch --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl get']='-h --help -e --events -g --gpus --idle-window --idle-threshold -T --type -o --output --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl logs']='-h --help -i --instance -c --container -f --follow -t --tail --since --since-time --timestamps -T --type -a --all --role --rank --prefix --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl top']='-h --help --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl top node']='-h --help -d --details -o --output --idle-window --idle-threshold -r --refresh --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl top job']='-h --help -i --instance -A --all-namespaces -T --type -o --output --idle-window --idle-threshold -r --refresh --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl top queue']='-h --help --pending -A --all-namespaces -o --output --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl data']='-h --help --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl data list']='-h --help -A --all-namespaces -o --output --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl queue']='-h --help --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl queue list']='-h --help --pending -A --all-namespaces -o --output --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl queue pending']='-h --help -o --output --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl runtime']='-h --help --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl runtime list']='-h --help -o --output --all --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl delete']='-h --help -T --type --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl suspend']='-h --help -T --type --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl resume']='-h --help -T --type --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl wait']='-h --help --for --timeout -T --type -o --output --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl doctor']='-h --help -T --type -o --output --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl completion']='-h --help --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl version']='-h --help -o --output --short --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl templates']='-h --help --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl templates export']='-h --help --force --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl config']='-h --help --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
    ['trainctl config view']='-h --help -o --output --kubeconfig --context -n --namespace --loglevel -v --verbose --request-timeout --no-color --prometheus'
)
declare -gA __trainctl_value_flags=(
    ['trainctl']='--kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl submit']='--kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl submit pytorch']='--name --image --gpus --cpu --memory --working-dir --workingDir -e --env -d --data --data-dir --dataDir --selector --toleration -a --annotation -l --label --image-pull-secret --imagePullSecret --image-pull-policy --imagePullPolicy --device --config-file --configFile --service-account -p --priority --shell --retry --ttl-after-finished --workers --sync-mode --syncMode --sync-source --syncSource --sync-image --syncImage --logdir --tensorboard-image --tensorboardImage --running-timeout --clean-task-policy --cleanTaskPolicy --share-memory --shm-size --scheduler --kueue-queue --min-available --minAvailable --schedule-timeout --min-resources --nproc-per-node --worker-image --api --operator --master-port --min-workers --max-workers --max-restarts --rdzv-backend --rdzv-port -o --output --timeout --template-dir --slots-per-worker --launcher-cpu --launcher-memory --task --task-images --task-label --task-policy --policy --task-replicas --task-name --task-cpu --task-memory --task-port --scheduler-name --ps --ps-image --ps-gpus --ps-port --ps-cpu --ps-memory --ps-selector --worker-port --worker-cpu --worker-memory --worker-selector --chief-port --chief-cpu --chief-memory --chief-selector --evaluator-port --evaluator-cpu --evaluator-memory --evaluator-selector --success-policy --runtime --runtime-kind --arg --dataset-uri --model-uri --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl submit mpi']='--name --image --gpus --cpu --memory --working-dir --workingDir -e --env -d --data --data-dir --dataDir --selector --toleration -a --annotation -l --label --image-pull-secret --imagePullSecret --image-pull-policy --imagePullPolicy --device --config-file --configFile --service-account -p --priority --shell --retry --ttl-after-finished --workers --sync-mode --syncMode --sync-source --syncSource --sync-image --syncImage --logdir --tensorboard-image --tensorboardImage --running-timeout --clean-task-policy --cleanTaskPolicy --share-memory --shm-size --scheduler --kueue-queue --min-available --minAvailable --schedule-timeout --min-resources --slots-per-worker --launcher-cpu --launcher-memory --worker-image -o --output --timeout --template-dir --nproc-per-node --api --operator --master-port --min-workers --max-workers --max-restarts --rdzv-backend --rdzv-port --task --task-images --task-label --task-policy --policy --task-replicas --task-name --task-cpu --task-memory --task-port --scheduler-name --ps --ps-image --ps-gpus --ps-port --ps-cpu --ps-memory --ps-selector --worker-port --worker-cpu --worker-memory --worker-selector --chief-port --chief-cpu --chief-memory --chief-selector --evaluator-port --evaluator-cpu --evaluator-memory --evaluator-selector --success-policy --runtime --runtime-kind --arg --dataset-uri --model-uri --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl submit volcano']='--name --image --gpus --cpu --memory --working-dir --workingDir -e --env -d --data --data-dir --dataDir --selector --toleration -a --annotation -l --label --image-pull-secret --imagePullSecret --image-pull-policy --imagePullPolicy --device --config-file --configFile --service-account -p --priority --shell --retry --ttl-after-finished --task --task-images --taskImages --task-label --task-policy --policy --task-replicas --taskReplicas --task-name --taskName --task-cpu --taskCPU --task-memory --taskMemory --task-port --taskPort --min-available --minAvailable --queue --kueue-queue --scheduler-name --schedulerName --scheduler -o --output --timeout --template-dir --workers --sync-mode --sync-source --sync-image --logdir --tensorboard-image --running-timeout --clean-task-policy --share-memory --schedule-timeout --min-resources --nproc-per-node --worker-image --api --operator --master-port --min-workers --max-workers --max-restarts --rdzv-backend --rdzv-port --slots-per-worker --launcher-cpu --launcher-memory --ps --ps-image --ps-gpus --ps-port --ps-cpu --ps-memory --ps-selector --worker-port --worker-cpu --worker-memory --worker-selector --chief-port --chief-cpu --chief-memory --chief-selector --evaluator-port --evaluator-cpu --evaluator-memory --evaluator-selector --success-policy --runtime --runtime-kind --arg --dataset-uri --model-uri --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl submit tf']='--name --image --gpus --cpu --memory --working-dir --workingDir -e --env -d --data --data-dir --dataDir --selector --toleration -a --annotation -l --label --image-pull-secret --imagePullSecret --image-pull-policy --imagePullPolicy --device --config-file --configFile --service-account -p --priority --shell --retry --ttl-after-finished --workers --sync-mode --syncMode --sync-source --syncSource --sync-image --syncImage --logdir --tensorboard-image --tensorboardImage --running-timeout --clean-task-policy --cleanTaskPolicy --share-memory --shm-size --scheduler --kueue-queue --min-available --minAvailable --schedule-timeout --min-resources --worker-image -o --output --timeout --template-dir --workerImage --ps --ps-image --psImage --ps-gpus --ps-port --ps-cpu --ps-memory --ps-selector --psPort --psCpu --psMemory --worker-port --worker-cpu --worker-memory --worker-selector --workerPort --workerCpu --workerMemory --chief-port --chief-cpu --chief-memory --chief-selector --chiefPort --ChiefCpu --ChiefMemory --evaluator-port --evaluator-cpu --evaluator-memory --evaluator-selector --evaluatorCpu --evaluatorMemory --success-policy --nproc-per-node --api --operator --master-port --min-workers --max-workers --max-restarts --rdzv-backend --rdzv-port --slots-per-worker --launcher-cpu --launcher-memory --task --task-images --task-label --task-policy --policy --task-replicas --task-name --task-cpu --task-memory --task-port --scheduler-name --runtime --runtime-kind --arg --dataset-uri --model-uri --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl submit trainjob']='--name --runtime --runtime-kind --image --workers --gpus --cpu --memory --device --nproc-per-node -e --env --working-dir --shell --sync-mode --syncMode --sync-source --syncSource --sync-image --syncImage --arg -d --data --data-dir --selector --toleration -a --annotation -l --label --image-pull-secret --service-account --dataset-uri --model-uri --logdir --tensorboard-image --running-timeout --kueue-queue -o --output --timeout --template-dir --image-pull-policy --config-file -p --priority --retry --ttl-after-finished --clean-task-policy --share-memory --scheduler --min-available --schedule-timeout --min-resources --worker-image --api --operator --master-port --min-workers --max-workers --max-restarts --rdzv-backend --rdzv-port --slots-per-worker --launcher-cpu --launcher-memory --task --task-images --task-label --task-policy --policy --task-replicas --task-name --task-cpu --task-memory --task-port --scheduler-name --ps --ps-image --ps-gpus --ps-port --ps-cpu --ps-memory --ps-selector --worker-port --worker-cpu --worker-memory --worker-selector --chief-port --chief-cpu --chief-memory --chief-selector --evaluator-port --evaluator-cpu --evaluator-memory --evaluator-selector --success-policy --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl list']='-T --type -o --output --idle-window --idle-threshold --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl get']='--idle-window --idle-threshold -T --type -o --output --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl logs']='-i --instance -c --container -t --tail --since --since-time -T --type --role --rank --reconnect-delay --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl top']='--kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl top node']='-o --output --idle-window --idle-threshold --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl top job']='-i --instance -T --type -o --output --idle-window --idle-threshold --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl top queue']='-o --output --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl data']='--kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl data list']='-o --output --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl queue']='--kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl queue list']='-o --output --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl queue pending']='-o --output --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl runtime']='--kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl runtime list']='-o --output --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl delete']='-T --type --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl suspend']='-T --type --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl resume']='-T --type --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl wait']='--for --timeout -T --type -o --output --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl doctor']='-T --type -o --output --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl completion']='--kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl version']='-o --output --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl templates']='--kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl templates export']='--kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl config']='--kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
    ['trainctl config view']='-o --output --kubeconfig --config --context -n --namespace --loglevel --request-timeout --prometheus'
)
declare -gA __trainctl_values=(
    ['trainctl --loglevel']='debug info warn warning error'
    ['trainctl submit --loglevel']='debug info warn warning error'
    ['trainctl submit pytorch --image-pull-policy']='Always IfNotPresent Never'
    ['trainctl submit pytorch --shell']='sh bash'
    ['trainctl submit pytorch --sync-mode']='git rsync'
    ['trainctl submit pytorch --clean-task-policy']='Running All None'
    ['trainctl submit pytorch --nproc-per-node']='auto cpu gpu'
    ['trainctl submit pytorch --api']='trainer training-operator none'
    ['trainctl submit pytorch --operator']='none'
    ['trainctl submit pytorch -o']='yaml json'
    ['trainctl submit pytorch --output']='yaml json'
    ['trainctl submit pytorch --loglevel']='debug info warn warning error'
    ['trainctl submit mpi --image-pull-policy']='Always IfNotPresent Never'
    ['trainctl submit mpi --shell']='sh bash'
    ['trainctl submit mpi --sync-mode']='git rsync'
    ['trainctl submit mpi --clean-task-policy']='Running All None'
    ['trainctl submit mpi -o']='yaml json'
    ['trainctl submit mpi --output']='yaml json'
    ['trainctl submit mpi --loglevel']='debug info warn warning error'
    ['trainctl submit volcano --image-pull-policy']='Always IfNotPresent Never'
    ['trainctl submit volcano --shell']='sh bash'
    ['trainctl submit volcano -o']='yaml json'
    ['trainctl submit volcano --output']='yaml json'
    ['trainctl submit volcano --loglevel']='debug info warn warning error'
    ['trainctl submit tf --image-pull-policy']='Always IfNotPresent Never'
    ['trainctl submit tf --shell']='sh bash'
    ['trainctl submit tf --sync-mode']='git rsync'
    ['trainctl submit tf --clean-task-policy']='Running All None'
    ['trainctl submit tf -o']='yaml json'
    ['trainctl submit tf --output']='yaml json'
    ['trainctl submit tf --loglevel']='debug info warn warning error'
    ['trainctl submit trainjob --runtime-kind']='ClusterTrainingRuntime TrainingRuntime'
    ['trainctl submit trainjob --nproc-per-node']='auto'
    ['trainctl submit trainjob --shell']='sh bash'
    ['trainctl submit trainjob -o']='yaml json'
    ['trainctl submit trainjob --output']='yaml json'
    ['trainctl submit trainjob --loglevel']='debug info warn warning error'
    ['trainctl list -T']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl list --type']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl list -o']='wide json yaml name'
    ['trainctl list --output']='wide json yaml name'
    ['trainctl list --loglevel']='debug info warn warning error'
    ['trainctl get -T']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl get --type']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl get -o']='wide json yaml name'
    ['trainctl get --output']='wide json yaml name'
    ['trainctl get --loglevel']='debug info warn warning error'
    ['trainctl logs -T']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl logs --type']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl logs --loglevel']='debug info warn warning error'
    ['trainctl top --loglevel']='debug info warn warning error'
    ['trainctl top node -o']='wide json yaml'
    ['trainctl top node --output']='wide json yaml'
    ['trainctl top node --loglevel']='debug info warn warning error'
    ['trainctl top job -T']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl top job --type']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl top job -o']='wide json yaml'
    ['trainctl top job --output']='wide json yaml'
    ['trainctl top job --loglevel']='debug info warn warning error'
    ['trainctl top queue -o']='table json yaml'
    ['trainctl top queue --output']='table json yaml'
    ['trainctl top queue --loglevel']='debug info warn warning error'
    ['trainctl data --loglevel']='debug info warn warning error'
    ['trainctl data list -o']='wide json yaml'
    ['trainctl data list --output']='wide json yaml'
    ['trainctl data list --loglevel']='debug info warn warning error'
    ['trainctl queue --loglevel']='debug info warn warning error'
    ['trainctl queue list -o']='table json yaml'
    ['trainctl queue list --output']='table json yaml'
    ['trainctl queue list --loglevel']='debug info warn warning error'
    ['trainctl queue pending -o']='table json yaml'
    ['trainctl queue pending --output']='table json yaml'
    ['trainctl queue pending --loglevel']='debug info warn warning error'
    ['trainctl runtime --loglevel']='debug info warn warning error'
    ['trainctl runtime list -o']='table wide json yaml'
    ['trainctl runtime list --output']='table wide json yaml'
    ['trainctl runtime list --loglevel']='debug info warn warning error'
    ['trainctl delete -T']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl delete --type']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl delete --loglevel']='debug info warn warning error'
    ['trainctl suspend -T']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl suspend --type']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl suspend --loglevel']='debug info warn warning error'
    ['trainctl resume -T']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl resume --type']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl resume --loglevel']='debug info warn warning error'
    ['trainctl wait --for']='running finished'
    ['trainctl wait -T']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl wait --type']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl wait -o']='table json'
    ['trainctl wait --output']='table json'
    ['trainctl wait --loglevel']='debug info warn warning error'
    ['trainctl doctor -T']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl doctor --type']='pytorchjob pytorch py mpijob mpi mj volcanojob volcano vj tfjob tensorflow tf trainjob tj'
    ['trainctl doctor -o']='table json yaml'
    ['trainctl doctor --output']='table json yaml'
    ['trainctl doctor --loglevel']='debug info warn warning error'
    ['trainctl completion --loglevel']='debug info warn warning error'
    ['trainctl version -o']='json'
    ['trainctl version --output']='json'
    ['trainctl version --loglevel']='debug info warn warning error'
    ['trainctl templates --loglevel']='debug info warn warning error'
    ['trainctl templates export --loglevel']='debug info warn warning error'
    ['trainctl config --loglevel']='debug info warn warning error'
    ['trainctl config view -o']='yaml json'
    ['trainctl config view --output']='yaml json'
    ['trainctl config view --loglevel']='debug info warn warning error'
)
declare -gA __trainctl_args=(
    ['trainctl completion']='bash zsh fish'
)

# Completes "$cur" from the output of `trainctl __complete WORDS...` (candidates, then ":N").
__trainctl_dynamic() {
    local out directive line
    local -a cands=()
    out=$("${words[0]}" __complete "${words[@]:1:cword-1}" "$orig_cur" 2>/dev/null) || return 0
    while IFS= read -r line; do
        cands+=("$line")
    done <<<"$out"
    directive=${cands[-1]#:}
    unset 'cands[-1]'
    [[ $directive =~ ^[0-9]+$ ]] || directive=0
    if ((${#cands[@]} == 0)); then
        if ((directive & 4)) || ((directive & 1)); then return 0; fi
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
        return 0
    fi
    ((directive & 2)) && compopt -o nospace 2>/dev/null
    COMPREPLY=("${cands[@]}")
    if [[ $cur == *:* ]] && declare -F __ltrim_colon_completions >/dev/null; then
        __ltrim_colon_completions "$orig_cur"
    fi
}

__trainctl_complete() {
    local cur prev words cword
    if declare -F _get_comp_words_by_ref >/dev/null; then
        _get_comp_words_by_ref -n =: cur prev words cword
    else
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        cur=${COMP_WORDS[COMP_CWORD]}
    fi
    COMPREPLY=()
    local orig_cur=$cur cmdpath=trainctl pending= dashdash= w i
    for ((i = 1; i < cword; i++)); do
        w=${words[i]}
        if [[ -n $pending ]]; then
            pending=
            continue
        fi
        if [[ -z $dashdash && $w == -- ]]; then
            dashdash=1
            continue
        fi
        if [[ -z $dashdash && $w == -?* ]]; then
            if [[ $w != *=* && " ${__trainctl_value_flags[$cmdpath]} " == *" $w "* ]]; then
                pending=$w
            fi
            continue
        fi
        if [[ -z $dashdash && -n ${__trainctl_children["$cmdpath $w"]} ]]; then
            cmdpath="$cmdpath ${__trainctl_children["$cmdpath $w"]}"
        fi
    done
    local flag=
    if [[ -n $pending ]]; then
        flag=$pending
    elif [[ -z $dashdash && $cur == --*=* ]]; then
        flag=${cur%%=*}
        cur=${cur#*=}
    fi
    if [[ -n $flag ]]; then
        if [[ -n ${__trainctl_values["$cmdpath $flag"]} ]]; then
            COMPREPLY=($(compgen -W "${__trainctl_values["$cmdpath $flag"]}" -- "$cur"))
        elif [[ " ${__trainctl_value_flags[$cmdpath]} " == *" $flag "* ]]; then
            __trainctl_dynamic
        fi
        return 0
    fi
    if [[ -z $dashdash && $cur == -* ]]; then
        COMPREPLY=($(compgen -W "${__trainctl_flags[$cmdpath]}" -- "$cur"))
        [[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
        return 0
    fi
    if [[ -n ${__trainctl_commands[$cmdpath]} ]]; then
        COMPREPLY=($(compgen -W "${__trainctl_commands[$cmdpath]}" -- "$cur"))
        if ((${#COMPREPLY[@]} == 0)); then
            COMPREPLY=($(compgen -W "${__trainctl_aliases[$cmdpath]}" -- "$cur"))
        fi
        return 0
    fi
    if [[ -n ${__trainctl_args[$cmdpath]} ]]; then
        COMPREPLY=($(compgen -W "${__trainctl_args[$cmdpath]}" -- "$cur"))
        return 0
    fi
    __trainctl_dynamic
}

complete -F __trainctl_complete trainctl
