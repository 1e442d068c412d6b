// An SSH key pair as Kubeflow Trainer v2.3.0's MPI plugin makes one for the Secret
// <trainjob>-mpi-ssh-auth (pkg/runtime/framework/plugins/mpi/mpi.go buildSSHAuthSecret): an
// ECDSA P-521 key, the private key PEM-encoded ("EC PRIVATE KEY", x509.MarshalECPrivateKey)
// and the public key as an authorized_keys line (golang.org/x/crypto/ssh MarshalAuthorizedKey).
#pragma once

#include <string>

namespace kubesim {

struct SshKeyPair {
  std::string private_pem;     // -----BEGIN EC PRIVATE KEY----- ...
  std::string authorized_key;  // "ecdsa-sha2-nistp521 AAAA...\n"
};

// Throws std::runtime_error when OpenSSL cannot make the key.
SshKeyPair ecdsa_p521_ssh_key();

}  // namespace kubesim
