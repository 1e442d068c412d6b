// The CustomResourceDefinition objects kube-apiserver serves at
// /apis/apiextensions.k8s.io/v1/customresourcedefinitions[/<plural>.<group>]: one per custom
// resource kubesim serves, taken from the real CRD documents (--schemas DIR/crds or --crds
// DIR) or, for the built-in custom resources, made from kubesim's own short schema. They are
// stored objects of the built-in type apiextensions.k8s.io/v1 customresourcedefinitions, so
// get, list, watch, tables and `kubectl get crd` work as for any other resource; creating one
// does not register a new resource (kubesim is not an apiextensions-apiserver).
//
// --crd-drop-field PLURAL.GROUP:PATH emulates an older operator release whose CRD lacks a
// field: the served CRD loses it, and creates that send it are treated as kube-apiserver
// treats an unknown field (pruned; 400 "strict decoding error" under fieldValidation=Strict).
#pragma once

#include <string>
#include <vector>

#include "kubesim/server.h"
#include "kubesim/store.h"

namespace kubesim {

struct CrdFieldDrop {
  std::string crd;   // "pytorchjobs.kubeflow.org"
  std::string path;  // "spec.nprocPerNode"
};

// Parses "pytorchjobs.kubeflow.org:spec.nprocPerNode"; throws std::invalid_argument with a
// one-line message saying what is wrong and how to write it.
CrdFieldDrop parse_crd_drop_field(const std::string& arg);

// Every CustomResourceDefinition document in dir (*.yaml, *.yml, *.json, several documents a
// file); an empty dir gives none.
std::vector<json> load_crd_documents(const std::string& dir);
// The directory and its CRD files' names, sizes and modification times: what the caches of
// parsed CRDs (load_crd_documents, make_schema_validator) are keyed by.
std::string crd_dir_signature(const std::string& dir);

// The CRD kubesim builds for a custom resource no document describes: its names, scope,
// versions and a short openAPIV3Schema of the spec/status fields kubesim knows for the
// kind (an object with x-kubernetes-preserve-unknown-fields for kinds it does not know).
json builtin_crd_document(const ResourceType& rt);

// Removes PATH ("spec.nprocPerNode") from every version's openAPIV3Schema; false when no
// version has it.
bool drop_crd_field(json& crd, const std::string& path);

// --crd-version PLURAL.GROUP=VERSION: serve that custom resource at VERSION only, as a release
// that served another version did (mpijobs.kubeflow.org=v1: the MPIJob of training-operator
// v1.x, manifests/base/crds/kubeflow.org_mpijobs.yaml up to v1.9.0, beside no mpi-operator).
// Its served versions are replaced by one of that name in the store and in its CRD document
// in docs (the schema stays the storage version's). Throws std::invalid_argument for a
// malformed argument or a resource kubesim does not serve.
void serve_crd_at_version(Store& store, std::vector<json>& docs, const std::string& arg);

// Stores one CRD object (status Established) for every custom resource the store serves:
// the matching document of docs when there is one, else builtin_crd_document(); the drops
// applied. Throws std::invalid_argument when a drop names a CRD or field that is not served.
void publish_crds(Store& store, const std::vector<json>& docs, const std::vector<CrdFieldDrop>& drops);

// A validator that treats the dropped fields as unknown (reported, pruned, their causes
// dropped) before or without the schema validator base.
Validator with_dropped_fields(Validator base, std::vector<CrdFieldDrop> drops);

}  // namespace kubesim
