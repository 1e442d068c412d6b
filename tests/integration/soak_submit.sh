#!/usr/bin/env bash
# Randomized submit soak: 200 submits (pytorch with and without the operator, mpi, volcano,
# random valid flags) while kubesim fails creates, reads and deletes at random (500, 503,
# reset connections, create answers cut short after the object was made). Afterwards,
# through kubesim's API: no object of a failed submit is left (zero orphans) and every
# successful submit has all the objects its --dry-run lists. Prints the counts.
# SOAK_SEED=N replays the submits and their flags (which requests meet a fault also depends
# on how the parallel submits interleave); SOAK_COUNT=N changes the number of submits.
set -euo pipefail
command -v python3 >/dev/null || { echo "SKIPPED: python3 is needed" >&2; exit 77; }
KUBESIM_SPEED=1  # creationTimestamp close to the wall clock, as on a real cluster
source "$(dirname "$0")/kubesim_env.bash"
start_kubesim --default-outcome run-forever --threads 128

SEED="${SOAK_SEED:-$RANDOM$RANDOM}"
echo "soak seed: $SEED (replay with SOAK_SEED=$SEED)"
SEED="$SEED" COUNT="${SOAK_COUNT:-200}" WORK="$WORK" KCFG="$KCFG" python3 - <<'PY' || fail "soak failed (seed $SEED)"
import base64, concurrent.futures, json, os, random, re, ssl, subprocess, sys, time, urllib.request

seed, count, work, kcfg = int(os.environ["SEED"]), int(os.environ["COUNT"]), os.environ["WORK"], os.environ["KCFG"]
trainctl = os.environ["TRAINCTL"]
text = open(kcfg).read()
server = re.search(r"server: *(\S+)", text).group(1)
token = re.search(r"token: *(\S+)", text).group(1)
ctx = ssl.create_default_context(cadata=base64.b64decode(
    re.search(r"certificate-authority-data: *(\S+)", text).group(1)).decode())

def api(method, path, body=None):
    req = urllib.request.Request(server + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, context=ctx, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()

creates = r"(pytorchjobs|mpijobs|jobs|deployments|services)$"
api("PUT", "/kubesim/faults", {"rules": [
    {"method": "POST", "path": creates, "probability": 0.08, "action": "status", "status": 500},
    {"method": "POST", "path": creates, "probability": 0.04, "action": "reset"},
    {"method": "POST", "path": creates, "probability": 0.04, "action": "truncate"},
    {"method": "POST", "path": creates, "probability": 0.03, "action": "status", "status": 429, "retryAfter": 0},
    {"method": "GET", "probability": 0.1, "action": "status", "status": 503},
    {"method": "DELETE", "probability": 0.15, "action": "status", "status": 503},
]})

rng = random.Random(seed)
def random_submit(i):
    name = f"soak-{i}"
    kind = rng.choice(["pytorch", "pytorch-none", "mpi", "volcano"])
    args = ["submit", kind.split("-")[0], f"--name={name}", "--image=pytorch/pytorch"]
    if kind == "pytorch-none":
        args.append("--operator=none")
    if kind != "volcano":
        args.append(f"--workers={rng.randint(1, 4)}")
    if kind == "pytorch" and rng.random() < 0.5:
        args.append("--tensorboard")
    if rng.random() < 0.5:
        args.append(f"--gpus={rng.randint(0, 2)}")
    if rng.random() < 0.3:
        args.append("--data=training-data:/data")
    for k in range(rng.randint(0, 2)):
        args.append(f"--env=K{k}=v{rng.randint(0, 99)}")
    if rng.random() < 0.3:
        args.append(f"--label=team=t{rng.randint(0, 9)}")
    args.append("python train.py")
    return name, args

plans = [random_submit(i) for i in range(count)]

def manifests(args):
    out = subprocess.run([trainctl] + args[:-1] + ["--dry-run", "-o", "json", args[-1]], capture_output=True, text=True)
    d = json.loads(out.stdout)
    return d if isinstance(d, list) else d.get("items", [d])

def object_path(o):
    group_version, kind, name = o["apiVersion"], o["kind"], o["metadata"]["name"]
    plural = kind.lower() + "s"
    base = "/api/" + group_version if "/" not in group_version else "/apis/" + group_version
    return f"{base}/namespaces/default/{plural}/{name}"

def run(plan):
    name, args = plan
    p = subprocess.run([trainctl, "--kubeconfig", kcfg, "--request-timeout", "10s"] + args,
                       capture_output=True, text=True, timeout=120)
    return name, args, p.returncode, p.stderr

with concurrent.futures.ThreadPoolExecutor(4) as pool:
    results = list(pool.map(run, plans))
api("DELETE", "/kubesim/faults")

ok = failed = orphans = incomplete = 0
problems = []
bad = re.compile(r"terminate called|what\(\)|json\.exception|Segmentation|AddressSanitizer")
for name, args, rc, err in results:
    if bad.search(err) or rc not in (0, 1):
        problems.append(f"{name}: exit {rc}: {err.strip()}")
    objects = manifests(args)
    present = [object_path(o) for o in objects if api("GET", object_path(o))[0] == 200]
    # What a rollback could not delete itself goes with the job, but later: the garbage
    # collector deletes dependents after their owner. Poll, with a bound, as a client must.
    deadline = time.time() + 15
    while rc != 0 and present and time.time() < deadline:
        time.sleep(0.2)
        present = [p for p in present if api("GET", p)[0] == 200]
    if rc == 0:
        ok += 1
        if len(present) != len(objects):
            incomplete += 1
            problems.append(f"{name} succeeded but has {len(present)} of {len(objects)} objects")
    else:
        failed += 1
        if err.count("\n") != 1:
            problems.append(f"{name}: the error is not one line: {err!r}")
        if present:
            orphans += len(present)
            problems.append(f"{name} failed ({err.strip()}) but left {present}")
print(f"soak: {count} submits, {ok} succeeded, {failed} failed, {orphans} orphaned objects, "
      f"{incomplete} incomplete jobs")
for p in problems[:20]:
    print("PROBLEM: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
