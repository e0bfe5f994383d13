#!/usr/bin/env bash
# Starts a one-node Slurm cluster (munged, slurmctld, slurmd) in a temporary
# folder, for the integration test. Sourced by slurm-test.sh: it defines
# start_cluster and stop_cluster and leaves SLURM_CONF exported.
#
# Nothing outside the folder is touched: the munge key, socket and logs, the
# controller's state and the daemons' pid files all live in it, on ports picked
# at random, and the daemons are stopped by their process ids. One cluster runs
# at a time on a machine: `make test` runs the Slurm test and the README's Slurm
# line side by side, and both would name their node after this host, so the
# second waits on a lock (file descriptor 9, which the daemons do not inherit)
# that the first holds until stop_cluster.

cluster_pids=()

start_cluster() {
  local folder=$1
  exec 9>"${TMPDIR:-/tmp}/lab-bench-slurm-cluster.lock"
  if ! flock -w 600 9; then
    echo "slurm cluster: another one-node cluster has run on this machine for 10 minutes; stop it first" >&2
    return 1
  fi
  mkdir -p "$folder/state" "$folder/spool" "$folder/munge"
  chmod 700 "$folder/munge"
  head -c 1024 /dev/urandom > "$folder/munge/munge.key"
  chmod 400 "$folder/munge/munge.key"
  munged --foreground --force --socket="$folder/munge/socket" --key-file="$folder/munge/munge.key" \
    --pid-file="$folder/munge/munged.pid" --seed-file="$folder/munge/seed" --log-file="$folder/munge/munged.log" \
    > "$folder/munge/munged.out" 2>&1 9>&- &
  cluster_pids+=($!)
  wait_for "munged's socket" 20 test -S "$folder/munge/socket"

  local port=$((20000 + RANDOM % 20000))
  local cpus
  cpus=$(nproc)
  cat > "$folder/slurm.conf" <<CONF
ClusterName=benchtest
SlurmctldHost=$(hostname)(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$folder/munge/socket,cred_expire=10
StateSaveLocation=$folder/state
SlurmdSpoolDir=$folder/spool
SlurmctldPidFile=$folder/slurmctld.pid
SlurmdPidFile=$folder/slurmd.pid
SlurmctldLogFile=$folder/slurmctld.log
SlurmdLogFile=$folder/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=600
NodeName=benchnode NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=bench Nodes=benchnode Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$folder/slurm.conf
  slurmctld -D -i -f "$SLURM_CONF" > "$folder/slurmctld.out" 2>&1 9>&- &
  cluster_pids+=($!)
  slurmd -D -N benchnode -f "$SLURM_CONF" > "$folder/slurmd.out" 2>&1 9>&- &
  cluster_pids+=($!)
  wait_for "the node to be idle" 60 node_is_idle
}

node_is_idle() {
  [ "$(sinfo -h -n benchnode -o %T 2>/dev/null)" = "idle" ]
}

stop_cluster() {
  local pid
  for pid in "${cluster_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${cluster_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  cluster_pids=()
  exec 9>&-
}

# wait_for WHAT SECONDS COMMAND...: runs COMMAND every half second until it succeeds.
wait_for() {
  local what=$1 seconds=$2
  shift 2
  local tries=$((seconds * 2))
  while ! "$@" > /dev/null; do
    tries=$((tries - 1))
    if [ "$tries" -le 0 ]; then
      echo "slurm test: gave up waiting for $what after ${seconds}s" >&2
      return 1
    fi
    sleep 0.5
  done
}
