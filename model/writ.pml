/*
 * Writ's ledger protocol for SPIN: one proposed run of two steps (an issue.create that persist writes,
 * and an external step the consumer's workflow performs under claim/checkpoint), two deliveries of
 * approval comments, a replacement run, a recovery sweeper, a human, a clock and the network, each
 * job able to crash at any point. model/README.md maps every variable and action to the TypeScript
 * it stands for; model/relation.pml (generated from model/relation.json) holds the transition guards.
 *
 * Negative controls (each re-introduces one real bug; `npm run model` requires SPIN to find it):
 *   NC_TAKEOVER_NO_CAS        takeover commits without compare-and-set on expectedHeadOid
 *   NC_RUNNER_CLOCK           lease expiry judged on a runner clock running SKEW ticks ahead
 *   NC_RETRY_WITHOUT_READBACK a write whose response was lost is sent again without reading back
 *   NC_ONE_RULESET            one ledger ruleset with the app as bypass actor: the app can force-push
 *   NC_CHECKPOINT_NO_EPOCH    checkpoint without the holder/epoch check
 */
#include "relation.pml"

/* ---- bounds (see model/README.md, "Why this bound") ---- */
#define NSTEPS 2
#define STEP_CREATE 0         /* step 0: issue.create, written by persist */
#define STEP_EXTERNAL 1       /* step 1: external, performed by the consumer's job */
#define LEASE 2               /* lease length, in server-clock ticks */
#define GRACE 1               /* grace after expiry before a takeover */
#define CAP 3                 /* LEASE + GRACE: the lease age saturates here */
#define SKEW 2                /* how far ahead a runner clock runs (> GRACE) */
#ifndef MAXCRASH
#define MAXCRASH 1            /* crashes of jobs in one execution (npm run model -- --deep: 2) */
#endif
#ifndef MAXFAULT
#define MAXFAULT 1            /* lost responses of target writes in one execution */
#endif
#define NJOBS 10              /* job identities: 1, 2 approval workflows; 3 replacement; 4.. sweeper runs */

/*
 * Two scenarios, each checked in full: `approval` (two deliveries of approval comments, lost events,
 * the recovery's lost-approval scan, a human's cancel, a force-push attempt; jobs stop after consume)
 * and `protocol` (one approval workflow that persists the run, a replacement run, the recovery
 * sweeper, a human, the clock and the network).
 */
#ifdef SCENARIO_APPROVAL
#define RUN_PERSIST 0
#else
#define RUN_PERSIST 1
#endif

#define WORKFLOW 1
#define REPLACEMENT 2

#ifdef NC_RUNNER_CLOCK
#define JUDGED_AGE (lage + SKEW)
#else
#define JUDGED_AGE lage
#endif
#ifdef NC_CHECKPOINT_NO_EPOCH
#define CHECKPOINT_FENCED 0
#else
#define CHECKPOINT_FENCED HOLDER_CHECK_CHECKPOINT
#endif
#ifdef NC_ONE_RULESET
#define APP_CAN_FORCE_PUSH 1
#else
#define APP_CAN_FORCE_PUSH 0
#endif

/* ---- the ledger branch: lease.json and the run file, changed only by a CAS commit ---- */
byte rstate = NO_RUN;         /* run.state */
byte epoch = 0;               /* lease.epoch */
byte holder = 0;              /* lease.holder (a job identity), 0 when free */
byte lage = 0;                /* server-clock ticks since the lease was renewed (saturates at CAP) */
byte owner = 0;               /* run.owner.epoch */
byte st[NSTEPS];              /* run.steps[i].status */
byte sep[NSTEPS];             /* run.steps[i].epoch (the epoch that claimed it) */
bit tomb[3];                  /* consumed-comment tombstones (comments 1 and 2) */

/* ---- GitHub outside the ledger ---- */
byte made[NSTEPS];            /* writes of each step performed on the target (creates counted) */
bit inflight[NSTEPS];         /* a write sent by a job that died before its answer */
bit posted[3];                /* approval comments on the status issue */
bit valid[3];                 /* the comment passes every consume-approval rule */
bit alive[NJOBS];             /* the Actions API: the job's workflow run is in progress */
byte unsent = 0;              /* jobs between a claim and the send of its write */
byte crashes = 0;
byte faults = 0;

/* ---- ghosts: never read by the protocol, only by the properties ---- */
byte g_maxepoch = 0;          /* the highest epoch ever granted */
byte g_consumes = 0;          /* consume commits that ever landed for the run */
byte g_cons[3];               /* ... per comment */
bit handled[3];               /* the comment was consumed, or refused with a code */
bit g_cancelled = 0;          /* the run was cancelled */
byte g_claimed_at_cancel = 0; /* steps claimed when the cancel landed */
byte g_after_cancel = 0;      /* target writes performed after the cancel */

#define ACTIVE (rstate == R_APPROVED || rstate == R_RUNNING)
#define ENDED (TERMINAL(rstate) || rstate == R_NEEDS_RECONCILIATION)
#define HOLDS(j, e) (holder == j && epoch == e && owner == e)
#define LEASE_LIVE (holder != 0 && JUDGED_AGE < CAP)
#define ANY_CLAIMED (st[0] == S_CLAIMED || st[1] == S_CLAIMED)
#define OPEN(i) (st[i] == S_PENDING || st[i] == S_CLAIMED)
#define FIRST_OPEN (OPEN(0) -> 0 : (OPEN(1) -> 1 : NSTEPS))
#define ANY_FAILED (st[0] == S_FAILED || st[1] == S_FAILED)

/* Every epoch granted is above every epoch granted before (property: epochs strictly increase). */
inline grant_epoch(e) {
  assert(e > g_maxepoch);
  g_maxepoch = e
}

/*
 * A claim or checkpoint that lands is made by the holder of the newest epoch (property: fencing), and
 * never on a cancelled run (property: a cancelled run makes no further write).
 */
inline lands_unfenced(e) {
  assert(e == g_maxepoch && !g_cancelled)
}

/*
 * One write of step i performed on the target (property: no step's write is performed twice). After a
 * cancel the only writes are those of steps claimed before it, each at most once (a write already sent,
 * or sent between its claim and the cancel, is not fenced by GitHub: the residual the README names).
 */
inline wrote(i) {
  made[i]++;
  assert(made[i] <= 1);
  if
  :: g_cancelled -> g_after_cancel++; assert(g_after_cancel <= g_claimed_at_cancel)
  :: else -> skip
  fi
}

inline crash_point() {
  if
  :: crashes < MAXCRASH -> crashes++; goto crashed
  :: true -> skip
  fi
}

/*
 * consume (transitions.ts consume, through cas.ts): evaluated and committed atomically, which is what
 * the CAS loop with read-back amounts to (a stale or lost attempt leaves no trace; the next attempt
 * re-reads and re-evaluates from scratch).
 */
inline consume(c) {
  atomic {
    if
    :: valid[c] && !tomb[c] && MAY_CONSUME(rstate) && !(LEASE_MUST_BE_FREE_CONSUME && LEASE_LIVE) ->
       myepoch = epoch + EPOCH_STEP_CONSUME;
       grant_epoch(myepoch);
       epoch = myepoch; owner = myepoch; holder = me; lage = 0;
       rstate = R_APPROVED; assert(TO_OK_CONSUME(rstate));
       tomb[c] = 1; handled[c] = 1;
       g_consumes++; g_cons[c]++;
       assert(g_consumes <= 1 && g_cons[c] <= 1);
       ok = 1
    :: else -> handled[c] = 1; ok = 0   /* refused with a code (unauthorized, already consumed, lease held) */
    fi
  }
}

/*
 * takeover (transitions.ts takeover through cas.ts): read the head, then commit with expectedHeadOid
 * equal to that head. The head is compared as the whole ledger state it names (every commit changes
 * it, and it cannot come back: epochs only grow and a step returns to pending only after a takeover).
 * `live` is recovery's takeover: the liveness rule (the holder's workflow run is not in progress) and
 * the resolutions its step observer reads at the head it read (recover.ts resolveClaimed): a claimed
 * create by its marker (made: done; none: the pre-state, back to pending); a claimed external step is
 * never resolved. A step still claimed stops the run at needs-reconciliation and frees the lease; a run
 * already there is taken over only when a resolution settles a step. Without `live` (a replacement
 * run's claim-checkpoint takeover) nothing is resolved. Under NC_TAKEOVER_NO_CAS the commit overwrites
 * whatever the head has become.
 */
inline takeover(live) {
  atomic {
    MAY_TAKEOVER(rstate) && !(LEASE_MUST_BE_FREE_TAKEOVER && LEASE_LIVE) && (!live || holder == 0 || !alive[holder]) &&
    (rstate != R_NEEDS_RECONCILIATION || (live && st[STEP_CREATE] == S_CLAIMED)) ->
    s_epoch = epoch; s_state = rstate; s_holder = holder;
    s_owner = owner; s_st0 = st[0]; s_st1 = st[1]; s_sep0 = sep[0]; s_sep1 = sep[1];
    s_res0 = (live && st[STEP_CREATE] == S_CLAIMED -> (made[STEP_CREATE] > 0 -> S_DONE : S_PENDING) : st[STEP_CREATE])
  }
  atomic {
    if
#ifndef NC_TAKEOVER_NO_CAS
    :: !(epoch == s_epoch && rstate == s_state && holder == s_holder && owner == s_owner &&
         st[0] == s_st0 && st[1] == s_st1 && sep[0] == s_sep0 && sep[1] == s_sep1) ->
       ok = 0                           /* STALE_DATA: re-read and re-evaluate */
#endif
    :: else ->
       myepoch = s_epoch + EPOCH_STEP_TAKEOVER;
       grant_epoch(myepoch);
       epoch = myepoch; owner = myepoch; lage = 0;
       if
       :: s_res0 != s_st0 ->
          assert(STEP_FROM_TAKEOVER(s_st0) && STEP_TO_TAKEOVER(s_res0));
          st[STEP_CREATE] = s_res0;
          if
          :: s_res0 == S_PENDING -> sep[STEP_CREATE] = 0
          :: else -> skip
          fi
       :: else -> skip
       fi;
       if
       :: ANY_CLAIMED -> holder = 0; rstate = R_NEEDS_RECONCILIATION; ok = 2
       :: else -> holder = me; rstate = (s_state == R_NEEDS_RECONCILIATION -> R_RUNNING : s_state); ok = 1
       fi;
       assert(TO_OK_TAKEOVER(rstate))
    fi;
    s_epoch = 0; s_state = 0; s_holder = 0; s_res0 = 0;
    s_owner = 0; s_st0 = 0; s_st1 = 0; s_sep0 = 0; s_sep1 = 0
  }
}

/*
 * persist and the claim/checkpoint job, as one holder: for each open step in order, claim (fenced),
 * pre-read, write, read back what is unknown, checkpoint (fenced); then complete. Stops when fenced.
 */
inline persist() {
  do
  :: atomic {
       s = FIRST_OPEN;
       if
       :: s == NSTEPS || ANY_FAILED ->
          if
          :: MAY_COMPLETE(rstate) && HOLDS(me, myepoch) && !ANY_CLAIMED ->
             rstate = (ANY_FAILED -> R_FAILED : R_COMPLETED); holder = 0;
             assert(TO_OK_COMPLETE(rstate))
          :: else -> skip                              /* fenced */
          fi;
          break
       :: s < NSTEPS && STEP_FROM_CLAIM(st[s]) && MAY_CLAIM(rstate) && (!HOLDER_CHECK_CLAIM || HOLDS(me, myepoch)) ->
          lands_unfenced(myepoch);
          st[s] = S_CLAIMED; sep[s] = myepoch; rstate = R_RUNNING; lage = 0; unsent++; sending = 1;
          assert(STEP_TO_CLAIM(st[s]) && TO_OK_CLAIM(rstate))
       :: else -> break                                /* fenced, or a step claimed by another epoch */
       fi
     };
     crash_point();
     /* pre-read: a create whose marker is already on a resource Writ authored is done, no write */
     if
     :: s == STEP_CREATE && made[s] > 0 -> atomic { unsent--; sending = 0; out = S_DONE }
     :: else ->
send:  atomic {
         if
         :: wrote(s); unsent--; sending = 0; out = S_DONE              /* applied, answered */
         :: unsent--; sending = 0; out = S_FAILED                      /* a definite 4xx: nothing happened */
         :: faults < MAXFAULT -> faults++; wrote(s); out = 0            /* applied, response lost */
         :: faults < MAXFAULT -> faults++; out = 0                     /* not applied, response lost */
         :: crashes < MAXCRASH -> crashes++; inflight[s] = 1; unsent--; sending = 0; goto crashed
         fi
       };
       if
       :: out == 0 ->
#ifdef NC_RETRY_WITHOUT_READBACK
          goto send                                                    /* the bug: a blind retry */
#else
          if
          :: s == STEP_EXTERNAL -> atomic { unsent--; sending = 0 }; break   /* unknown: stays claimed */
          :: else ->
             atomic {
               if
               :: made[s] > 0 -> unsent--; sending = 0; out = S_DONE   /* read back: the marker is there */
               :: else -> skip
               fi
             };
             if
             :: out == 0 -> goto send                                  /* read back: nothing landed */
             :: else -> skip
             fi
          fi
#endif
       :: else -> skip
       fi
     fi;
     crash_point();
     atomic {
       if
       :: MAY_CHECKPOINT(rstate) && STEP_FROM_CHECKPOINT(st[s]) && (!CHECKPOINT_FENCED || (HOLDS(me, myepoch) && sep[s] == myepoch)) ->
          lands_unfenced(myepoch);
          st[s] = out; lage = 0;
          assert(STEP_TO_CHECKPOINT(st[s]) && TO_OK_CHECKPOINT(rstate));
          s = 0; out = 0
       :: else -> break                                                /* fenced */
       fi
     }
  od
}

/* An approval workflow run for comment c (its event may never arrive), or a replacement run. */
proctype Job(byte me; byte role; byte c) {
  byte myepoch, s, out, s_epoch, s_state, s_holder, s_owner, s_st0, s_st1, s_sep0, s_sep1, s_res0, ok;
  bit sending;
  if
  :: role == WORKFLOW ->
     if
     :: true -> goto gone                  /* GitHub cancelled the run: the comment's event is lost */
     :: true -> skip
     fi;
     alive[me] = 1;
     consume(c);
     if
     :: ok -> skip
     :: else -> goto gone
     fi
  :: role == REPLACEMENT ->
     alive[me] = 1;
end_wait:
     do
     :: takeover(0);
        if
        :: ok == 1 -> break
        :: ok == 2 -> goto gone                     /* the run now needs reconciliation */
        :: else -> skip                             /* stale: re-read */
        fi
     :: TERMINAL(rstate) || rstate == R_NEEDS_RECONCILIATION -> goto gone
     od
  fi;
#if RUN_PERSIST
  persist();
#endif
  goto gone;
crashed:
  if
  :: sending -> unsent--
  :: else -> skip
  fi;
gone:
  alive[me] = 0
}

/*
 * recovery: scheduled sweeps. Lost approvals on a proposed run; takeover of an expired lease whose
 * holder is not in progress, or of a run at needs-reconciliation whose claimed create it can now
 * observe, settling claimed steps by observation in the takeover's own commit (then it resumes the run
 * as persist). It never resolves a claimed external step.
 */
proctype Sweeper() {
  byte me = 4, myepoch, s, out, s_epoch, s_state, s_holder, s_owner, s_st0, s_st1, s_sep0, s_sep1, s_res0, c, ok;
  bit sending, seen[3];
end_sweep:
  do
  :: atomic { rstate == R_PROPOSED && posted[1] && !tomb[1] && !seen[1] -> c = 1 };
     goto scan
  :: atomic { rstate == R_PROPOSED && posted[2] && !tomb[2] && !seen[2] -> c = 2 };
     goto scan
  :: takeover(1);
     if
     :: ok == 1 -> goto resume
     :: else -> skip
     fi
  :: TERMINAL(rstate) -> break
  od;
  goto stop;
scan:
  consume(c);
  if
  :: ok -> goto resume
  :: else -> seen[c] = 1; goto end_sweep       /* refused: reported on the status comment */
  fi;
resume:
  alive[me] = 1;
#if RUN_PERSIST
  persist();
#endif
  goto next;
crashed:
  if
  :: sending -> unsent--
  :: else -> skip
  fi;
next:
  alive[me] = 0;
  atomic { assert(me < NJOBS - 1); me++ }      /* the next scheduled run is another workflow run */
  goto end_sweep;
stop:
  skip
}

/* A repository writer: reconciles a claimed step by looking at GitHub, or cancels the run. */
proctype Human() {
  byte s;
  bit cancelled;
end_human:
  do
  :: atomic {
       MAY_RECONCILE(rstate) && ANY_CLAIMED ->
       s = (st[0] == S_CLAIMED -> 0 : 1);
       if
       :: made[s] > 0 -> st[s] = S_DONE
       :: made[s] == 0 -> st[s] = S_PENDING   /* "retry": the human saw nothing happened */
       :: made[s] == 0 -> st[s] = S_FAILED
       fi;
       assert(STEP_TO_RECONCILE(st[s]));
       if
       :: !ANY_CLAIMED -> rstate = R_RUNNING
       :: !ANY_CLAIMED -> rstate = R_FAILED
       :: else -> skip
       fi;
       assert(TO_OK_RECONCILE(rstate))
     }
  :: atomic {
       !cancelled && MAY_CANCEL(rstate) ->
       cancelled = 1;
       if
       :: holder != 0 || !EPOCH_ONLY_IF_HELD_CANCEL ->   /* the run holds the lease: its holder is fenced */
          grant_epoch(epoch + EPOCH_STEP_CANCEL);
          epoch = epoch + EPOCH_STEP_CANCEL; holder = 0
       :: else -> skip                                    /* the lease is free: it stays as it is */
       fi;
       rstate = R_CANCELLED;
       assert(TO_OK_CANCEL(rstate));
       g_cancelled = 1;
       g_claimed_at_cancel = (st[0] == S_CLAIMED -> 1 : 0) + (st[1] == S_CLAIMED -> 1 : 0)
     }
  od
}

/* Any Writ job holds the app token: it tries once to force the ledger back to the proposal. */
proctype ForcePush() {
end_push:
  atomic {
    tomb[1] || tomb[2] ->
    if
    :: APP_CAN_FORCE_PUSH ->
       rstate = R_PROPOSED; epoch = 0; holder = 0; owner = 0; lage = 0;
       st[0] = S_PENDING; st[1] = S_PENDING; sep[0] = 0; sep[1] = 0; tomb[1] = 0; tomb[2] = 0
    :: else -> skip        /* refused: non_fast_forward, and no bypass actor on that ruleset */
    fi
  }
}

/*
 * The server clock and the network. A job sends its write within LEASE of its claim, and a request in
 * flight lands or is lost before the lease's expiry plus grace (the grace outlasts the client timeout).
 */
proctype Env() {
end_env:
  do
  :: atomic { lage < CAP && !(unsent > 0 && lage + 1 >= LEASE) && !((inflight[0] || inflight[1]) && lage + 1 >= CAP) -> lage++ }
  :: atomic { inflight[0] -> inflight[0] = 0; wrote(0) }
  :: atomic { inflight[0] -> inflight[0] = 0 }
  :: atomic { inflight[1] -> inflight[1] = 0; wrote(1) }
  :: atomic { inflight[1] -> inflight[1] = 0 }
  od
}

init {
  byte c2;
  atomic {
    assert(MAY_PROPOSE(rstate));
    rstate = R_PROPOSED; assert(TO_OK_PROPOSE(rstate));
    posted[1] = 1; valid[1] = 1;
#ifdef SCENARIO_APPROVAL
    /* the second delivery: comment 1 again (a re-run), a second valid approval, or an invalid one */
    if
    :: c2 = 1
    :: c2 = 2; posted[2] = 1; valid[2] = 1
    :: c2 = 2; posted[2] = 1; valid[2] = 0
    fi;
    run Job(1, WORKFLOW, 1);
    run Job(2, WORKFLOW, c2);
    run Sweeper();
    run Human();
    run ForcePush()
#else
    run Job(1, WORKFLOW, 1);
    run Job(3, REPLACEMENT, 0);
    run Sweeper();
    run Human();
    run Env()
#endif
  }
}

/* Liveness, under weak fairness (pan -a -f). */
ltl run_ends { [] ((rstate == R_APPROVED || rstate == R_RUNNING) -> <> (rstate == R_COMPLETED || rstate == R_FAILED || rstate == R_CANCELLED || rstate == R_NEEDS_RECONCILIATION)) }
ltl approval_not_lost { [] ((posted[1] && rstate == R_PROPOSED) -> <> (handled[1] || rstate != R_PROPOSED)) }
ltl second_approval_not_lost { [] ((posted[2] && rstate == R_PROPOSED) -> <> (handled[2] || rstate != R_PROPOSED)) }
