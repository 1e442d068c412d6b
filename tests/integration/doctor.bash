# Sourced by the doctor tests, after kubesim_env.bash: runs `trainctl doctor -o json` and
# reads its findings with jq (docs/json-output.md, "doctor").

# doctor_json [ARGS...]: the report in $DOC, the exit code in $DOCTOR_RC, stderr in $DOCTOR_ERR;
# as the user of $DOCTOR_KUBECONFIG when set.
doctor_json() {
  set +e
  DOC=$("$TRAINCTL" --kubeconfig "${DOCTOR_KUBECONFIG:-$KCFG}" doctor -o json "$@" 2>"$WORK/doctor.err")
  DOCTOR_RC=$?
  set -e
  DOCTOR_ERR=$(cat "$WORK/doctor.err")
  jq -e .findings >/dev/null <<<"$DOC" || fail "doctor -o json $* printed no report: $DOC $DOCTOR_ERR"
}

# finding ID JQ: JQ (".status", ".details.generation") of finding ID; "absent" when there is none.
finding() {
  local v
  v=$(jq -r --arg id "$1" "[.findings[] | select(.id == \$id)] | if length == 0 then \"absent\" else (.[0] | $2) end" <<<"$DOC")
  echo "$v"
}

# expect_finding ID STATUS [TEXT]: finding ID has STATUS and TEXT in its result, reason or fix.
expect_finding() {
  local status
  status=$(finding "$1" .status)
  [[ $status == "$2" ]] || fail "finding $1 is $status, not $2: $(jq -c --arg id "$1" '.findings[] | select(.id == $id)' <<<"$DOC")"
  if [[ -n "${3:-}" ]]; then
    grep -qF -- "$3" <<<"$(finding "$1" '.result + " | " + .reason + " | " + .fix')" ||
      fail "finding $1 does not say \"$3\": $(finding "$1" '.result + " | " + .reason + " | " + .fix')"
  fi
}

# A kubeconfig for the user of token TOKEN: the admin's, with the token swapped, written by
# the real kubectl.
user_kubeconfig() {
  cp "$KCFG" "$2"
  KUBECONFIG="$2" kubectl config set-credentials doctor-user --token="$1" >/dev/null
  KUBECONFIG="$2" kubectl config set-context --current --user=doctor-user >/dev/null
}
