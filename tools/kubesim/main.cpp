// kubesim: a local Kubernetes API simulator. Placeholder.
#include <iostream>

int main() {
  std::cerr << "kubesim is not implemented yet\n";
  return 1;
}
