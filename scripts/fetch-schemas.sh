#!/usr/bin/env bash
# Downloads the Kubernetes schemas the tests validate against (the operators' CRDs and the
# core OpenAPI v3 documents) from their upstream repositories at pinned commits, checks
# their sha256, and stores them in ~/.cache/trainctl/k8s-schemas (or $1); and Kubeflow Trainer
# v2.3.0's default ClusterTrainingRuntimes (manifests/base/runtimes) in trainer-runtimes beside
# it, which kubesim's Trainer tests load (../shared/trainer-runtimes when present).
# Needs internet access. Tests find the schemas in $TRAINCTL_SCHEMAS, ../shared/k8s-schemas
# beside the source tree, or this cache; scripts/test.sh runs this script when none is there.
set -euo pipefail

dest="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/trainctl/k8s-schemas}"
gh="https://raw.githubusercontent.com"

# path-in-cache  url  sha256
files=(
  "crds/kubeflow.org_pytorchjobs.yaml $gh/kubeflow/training-operator/078ec30ff26649a07d2e28893c332d4cef70e233/manifests/base/crds/kubeflow.org_pytorchjobs.yaml eb80e57a984cdc7ceefaaf3fc561e21b673c30cbb58589f2389528d2b2760d22"
  "crds/kubeflow.org_tfjobs.yaml $gh/kubeflow/training-operator/078ec30ff26649a07d2e28893c332d4cef70e233/manifests/base/crds/kubeflow.org_tfjobs.yaml 1fea6d2d9d3fec4697db322d4490be67b0d616478f42566e4c48ae865130a8c8"
  "crds/kueue.x-k8s.io_clusterqueues.yaml $gh/kubernetes-sigs/kueue/8eab68778fc1b52affe165fdf5af29d1e9b4f3cb/config/components/crd/bases/kueue.x-k8s.io_clusterqueues.yaml e0a5fc9b370c70f3d993d4f599865817338ecf94187b30b15b12ff33c579bd55"
  "crds/kueue.x-k8s.io_localqueues.yaml $gh/kubernetes-sigs/kueue/8eab68778fc1b52affe165fdf5af29d1e9b4f3cb/config/components/crd/bases/kueue.x-k8s.io_localqueues.yaml dd10ef8d3578e7212fa52763549e7b6be0949793a5b924495fcd293330109fed"
  "crds/kueue.x-k8s.io_resourceflavors.yaml $gh/kubernetes-sigs/kueue/8eab68778fc1b52affe165fdf5af29d1e9b4f3cb/config/components/crd/bases/kueue.x-k8s.io_resourceflavors.yaml 19e339c47e9ca3fa2c9eeddd27715a512f765c4794ed859733408a9715720173"
  "crds/kueue.x-k8s.io_workloads.yaml $gh/kubernetes-sigs/kueue/8eab68778fc1b52affe165fdf5af29d1e9b4f3cb/config/components/crd/bases/kueue.x-k8s.io_workloads.yaml 1970ff6fcc5dc1a29e3f290ed736032c5d4509c94efe2c642d64a244ad1b8aa5"
  "crds/kubeflow.org_mpijobs.yaml $gh/kubeflow/mpi-operator/caa3c47fc42eb762635f78045ec0fcd1a89eb038/manifests/base/kubeflow.org_mpijobs.yaml 78b0131f931fcc8d99f6ce0407281f41b62527e443ec691d26d9634b390ad3bb"
  "crds/batch.volcano.sh_jobs.yaml $gh/volcano-sh/volcano/0a56ed331897f5455916a44d3075671376d731d6/config/crd/volcano/bases/batch.volcano.sh_jobs.yaml a03feedc265bc8c9d71240063a37e0e818fa70fcad7b8a113b0875dc53fffa90"
  "crds/scheduling.volcano.sh_podgroups.yaml $gh/volcano-sh/volcano/0a56ed331897f5455916a44d3075671376d731d6/config/crd/volcano/bases/scheduling.volcano.sh_podgroups.yaml c297c0fdcf00cea6a35daa2b6153a8590b56df0e22a96dbfa44f773814685017"
  "crds/scheduling.volcano.sh_queues.yaml $gh/volcano-sh/volcano/0a56ed331897f5455916a44d3075671376d731d6/config/crd/volcano/bases/scheduling.volcano.sh_queues.yaml 92203dee889b6d3bb628f96d27779e98967d8ba21e58c425c7379bcbcee8b482"
  "crds/trainer.kubeflow.org_trainjobs.yaml $gh/kubeflow/trainer/658725bdae5c7e3a0854d93ac6ff492e109a22ab/manifests/base/crds/trainer.kubeflow.org_trainjobs.yaml a742cafc5b5582640c7e0b7467c024fc237256fbca5ba0a9f0531dfb66d64416"
  "crds/trainer.kubeflow.org_trainingruntimes.yaml $gh/kubeflow/trainer/658725bdae5c7e3a0854d93ac6ff492e109a22ab/manifests/base/crds/trainer.kubeflow.org_trainingruntimes.yaml 69b8dbdf60a18e28cddcc2b8dfc4ce72a943e14b531b9389d593118faee4919f"
  "crds/trainer.kubeflow.org_clustertrainingruntimes.yaml $gh/kubeflow/trainer/658725bdae5c7e3a0854d93ac6ff492e109a22ab/manifests/base/crds/trainer.kubeflow.org_clustertrainingruntimes.yaml ec84dc3388fcdbe8c61d3c247a773d14458dd9438e995bea8e50d2a18080eef9"
  "crds/jobset.x-k8s.io_jobsets.yaml $gh/kubernetes-sigs/jobset/f22e565ac3cc3265c7c45ef67ecffdc689af5d77/config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml d022b87624512cf0b6741b31b24a2bea9945b5a838b50713af29332c878bb6fe"
  "trainer-runtimes/torch_distributed.yaml $gh/kubeflow/trainer/658725bdae5c7e3a0854d93ac6ff492e109a22ab/manifests/base/runtimes/torch_distributed.yaml c4520df54615d481831d402e644dbeaf77a7a521eae87b2e80fd5f789aac5df2"
  "trainer-runtimes/deepspeed_distributed.yaml $gh/kubeflow/trainer/658725bdae5c7e3a0854d93ac6ff492e109a22ab/manifests/base/runtimes/deepspeed_distributed.yaml f443d4c4b2c0e6a8acdae5381ff2563696b958929217c088e101a7f27bc36827"
  "trainer-runtimes/mlx_distributed.yaml $gh/kubeflow/trainer/658725bdae5c7e3a0854d93ac6ff492e109a22ab/manifests/base/runtimes/mlx_distributed.yaml 2c034da061b53b6de8908552867838452e646c0252492b18c9d442d000c55fb0"
  "trainer-runtimes/jax_distributed.yaml $gh/kubeflow/trainer/658725bdae5c7e3a0854d93ac6ff492e109a22ab/manifests/base/runtimes/jax_distributed.yaml c037b51a8088f26ad673325e3efe9823a61fe250a83f95966644be336f4f835f"
  "trainer-runtimes/xgboost_distributed.yaml $gh/kubeflow/trainer/658725bdae5c7e3a0854d93ac6ff492e109a22ab/manifests/base/runtimes/xgboost_distributed.yaml d2345b16a2043333c31712870c7991e5d3536356be909a9e4dc1e6a7b31e1aca"
  "openapi/v1.31/api__v1_openapi.json $gh/kubernetes-sigs/kubectl-validate/a97ccfaca20b164819afdae780392496f6ed6bbd/pkg/openapiclient/builtins/1.31/api/v1.json 9774af2f5f5cdfbeb2557e5e1ec491341025f993639fbef912e2c7cbd97b21a2"
  "openapi/v1.31/apis__apps__v1_openapi.json $gh/kubernetes-sigs/kubectl-validate/a97ccfaca20b164819afdae780392496f6ed6bbd/pkg/openapiclient/builtins/1.31/apis/apps/v1.json 91c2ff75cfcb3f4f743bf08bda2d1b9c893a4987c792200df0364d6d52a9cdc9"
  "openapi/v1.31/apis__batch__v1_openapi.json $gh/kubernetes-sigs/kubectl-validate/a97ccfaca20b164819afdae780392496f6ed6bbd/pkg/openapiclient/builtins/1.31/apis/batch/v1.json 96e05ba1bb75313062bab67cbbb783e68ef2d02732cfceb7c183447db0f1cffc"
  "openapi/v1.35/api__v1_openapi.json $gh/kubernetes-sigs/kubectl-validate/a97ccfaca20b164819afdae780392496f6ed6bbd/pkg/openapiclient/builtins/1.35/api/v1.json 45666551cf0928e4e8a9b88508f9b23aa78d2341aa27b0587457b2694717fcc1"
  "openapi/v1.35/apis__apps__v1_openapi.json $gh/kubernetes-sigs/kubectl-validate/a97ccfaca20b164819afdae780392496f6ed6bbd/pkg/openapiclient/builtins/1.35/apis/apps/v1.json 8f22326dfd8be012bc6247e44bb6adb8070079c0ca9c0a527840811bccf3482e"
  "openapi/v1.35/apis__batch__v1_openapi.json $gh/kubernetes-sigs/kubectl-validate/a97ccfaca20b164819afdae780392496f6ed6bbd/pkg/openapiclient/builtins/1.35/apis/batch/v1.json 75375a3f73cf46fc9351dcf21fd57192acbebb2bae96170b0831af75e860efc4"
)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for entry in "${files[@]}"; do
  read -r path url sum <<<"$entry"
  mkdir -p "$tmp/$(dirname "$path")"
  echo "fetching $path"
  curl -fsSL --retry 3 -o "$tmp/$path" "$url"
  echo "$sum  $tmp/$path" | sha256sum -c --quiet -
done
mkdir -p "$dest" "$(dirname "$dest")/trainer-runtimes"
cp -r "$tmp"/crds "$tmp"/openapi "$dest"/
cp "$tmp"/trainer-runtimes/*.yaml "$(dirname "$dest")/trainer-runtimes/"
echo "schemas stored in $dest, Trainer runtimes in $(dirname "$dest")/trainer-runtimes"
