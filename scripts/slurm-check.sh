#!/usr/bin/env bash
# docs/long-runs.md's Slurm recipe, run for real on a one-node Slurm cluster made on this machine
# from the distribution's packages (slurm-wlm, munge; installed with apt-get if missing,
# which needs root), then checked byte for byte against the same run on one machine.
#
#   scripts/slurm-check.sh          (from the repository, after npm run build)
#
# It starts its own munged, slurmctld and slurmd on loopback, with their keys, state,
# sockets and logs in a temporary directory and ports of their own (16817, 16818), so an
# existing munge or Slurm setup is left alone; it stops what it started on exit. The job
# script is that page's, taken from the page itself, with the run made small: 3 array
# tasks of 1 CPU, Viersche heuristic against random, 6 matches. Exit 0 when the merged
# summary, journal and records equal the one-machine run's.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$repo/dist/src/cli/main.js" ] || { echo "slurm-check: build first (npm run build)" >&2; exit 2; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "slurm-check: installing slurm-wlm and munge"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

t=$(mktemp -d /tmp/tafel-slurm.XXXXXX)
host=$(hostname)
pids=()
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do while kill -0 "$p" 2>/dev/null; do sleep 0.2; done; done
  echo "slurm-check: stopped munged, slurmctld and slurmd; logs in $t"
}
trap stop EXIT

echo "slurm-check: munged"
chown munge: "$t" && chmod 700 "$t"
dd if=/dev/urandom of="$t/munge.key" bs=1024 count=1 status=none
chown munge: "$t/munge.key" && chmod 400 "$t/munge.key"
runuser -u munge -- munged --force --key-file="$t/munge.key" --socket="$t/munge.socket" \
  --pid-file="$t/munged.pid" --log-file="$t/munged.log" --seed-file="$t/munge.seed"
pids+=("$(cat "$t/munged.pid")")
chmod 755 "$t"

echo "slurm-check: slurmctld and slurmd on $host, $(nproc) CPUs"
mkdir -p "$t/state" "$t/spool"
cat >"$t/slurm.conf" <<EOF
ClusterName=tafelcheck
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$t/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/slurmctld.log
SlurmdLogFile=$t/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
printf 'CgroupPlugin=autodetect\nIgnoreSystemd=yes\n' >"$t/cgroup.conf"
export SLURM_CONF="$t/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >"$t/slurmctld.out" 2>&1 &
pids+=("$!")
sleep 1
slurmd -D -f "$SLURM_CONF" >"$t/slurmd.out" 2>&1 &
pids+=("$!")
for _ in $(seq 60); do
  state=$(sinfo -h -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.5
done
echo "slurm-check: sinfo says the node is '${state:-nothing}'"
[ "$state" = idle ] || { echo "slurm-check: the node did not come up; see $t/*.log" >&2; exit 1; }

# The page's job script, made small.
work="$t/work"
mkdir -p "$work/results"
ln -s "$repo/dist" "$work/dist"
awk '/^As a Slurm job array/ { on = 1 } on && /^#!\/bin\/bash/ { copy = 1 } copy && /^```/ { exit } copy' \
  "$repo/docs/long-runs.md" >"$work/shards.sh"
grep -q 'SLURM_ARRAY_TASK_ID' "$work/shards.sh" || { echo "slurm-check: no job script found in docs/long-runs.md" >&2; exit 1; }
sed -i -e 's/--array=0-7/--array=0-2/' -e 's/--cpus-per-task=8/--cpus-per-task=1/' -e 's#/8"#/3"#' \
  -e 's/--matches 20000/--matches 6/' -e 's/montecarlo,heuristic/heuristic,random/' "$work/shards.sh"
echo "slurm-check: the job script, from docs/long-runs.md:"
sed 's/^/  | /' "$work/shards.sh"

cd "$work"
job=$(sbatch --parsable --output="$t/task-%a.out" shards.sh)
echo "slurm-check: submitted array job $job"
for _ in $(seq 600); do
  left=$(squeue -h -j "$job" 2>/dev/null | wc -l)
  [ "$left" = 0 ] && break
  sleep 0.5
done
sacct_state=$(scontrol show job "$job" 2>/dev/null | grep -o 'JobState=[A-Z]*' | sort | uniq -c | tr -s ' ' || true)
echo "slurm-check: the array has finished (${sacct_state:-no state left})"
for f in "$t"/task-*.out; do [ -s "$f" ] && { echo "slurm-check: $(basename "$f"):"; sed 's/^/  | /' "$f"; }; done

# The page's merge line, with the records joined too.
node dist/src/cli/main.js merge results/part-*.journal.jsonl --out results/all.csv --records results/all.jsonl

one="$t/one"
mkdir -p "$one/results"
(cd "$one" && node "$repo/dist/src/cli/main.js" run --game viersche --bots heuristic,random --matches 6 --seed s1 \
  --workers 1 --out results/all.csv --records results/all.jsonl >/dev/null 2>&1)
ok=1
for f in all.csv all.journal.jsonl all.jsonl; do
  if cmp -s "$work/results/$f" "$one/results/$f"; then
    echo "slurm-check: results/$f: the same bytes as the one-machine run"
  else
    echo "slurm-check: results/$f DIFFERS from the one-machine run" >&2
    ok=0
  fi
done
[ "$ok" = 1 ] && echo "slurm-check: passed" || { echo "slurm-check: FAILED" >&2; exit 1; }
