/* GENERATED from model/relation.json by scripts/model.mjs (npm run model -- --write). Do not edit. */

/* Run states (0: the run file does not exist). */
#define NO_RUN 0
#define R_PROPOSED 1
#define R_APPROVED 2
#define R_RUNNING 3
#define R_COMPLETED 4
#define R_FAILED 5
#define R_CANCELLED 6
#define R_NEEDS_RECONCILIATION 7
#define TERMINAL(s) (s == R_COMPLETED || s == R_FAILED || s == R_CANCELLED)

/* Step statuses. */
#define S_PENDING 0
#define S_CLAIMED 1
#define S_DONE 2
#define S_CONFLICT 3
#define S_FAILED 4

/* propose */
#define MAY_PROPOSE(s) (s == NO_RUN)
#define TO_OK_PROPOSE(s) (s == R_PROPOSED)
#define EPOCH_STEP_PROPOSE 0
#define HOLDER_CHECK_PROPOSE 0
#define LEASE_MUST_BE_FREE_PROPOSE 0

/* consume */
#define MAY_CONSUME(s) (s == R_PROPOSED)
#define TO_OK_CONSUME(s) (s == R_APPROVED)
#define EPOCH_STEP_CONSUME 1
#define HOLDER_CHECK_CONSUME 0
#define LEASE_MUST_BE_FREE_CONSUME 1

/* claim */
#define MAY_CLAIM(s) (s == R_APPROVED || s == R_RUNNING)
#define TO_OK_CLAIM(s) (s == R_RUNNING)
#define EPOCH_STEP_CLAIM 0
#define HOLDER_CHECK_CLAIM 1
#define LEASE_MUST_BE_FREE_CLAIM 0
#define STEP_FROM_CLAIM(x) (x == S_PENDING)
#define STEP_TO_CLAIM(x) (x == S_CLAIMED)

/* checkpoint */
#define MAY_CHECKPOINT(s) (s == R_RUNNING)
#define TO_OK_CHECKPOINT(s) (s == R_RUNNING || s == R_COMPLETED)
#define EPOCH_STEP_CHECKPOINT 0
#define HOLDER_CHECK_CHECKPOINT 1
#define LEASE_MUST_BE_FREE_CHECKPOINT 0
#define STEP_FROM_CHECKPOINT(x) (x == S_CLAIMED)
#define STEP_TO_CHECKPOINT(x) (x == S_DONE || x == S_CONFLICT || x == S_FAILED)

/* takeover */
#define MAY_TAKEOVER(s) (s == R_APPROVED || s == R_RUNNING)
#define TO_OK_TAKEOVER(s) (s == R_APPROVED || s == R_RUNNING || s == R_NEEDS_RECONCILIATION)
#define EPOCH_STEP_TAKEOVER 1
#define HOLDER_CHECK_TAKEOVER 0
#define LEASE_MUST_BE_FREE_TAKEOVER 1

/* release */
#define MAY_RELEASE(s) (s == R_APPROVED || s == R_RUNNING || s == R_NEEDS_RECONCILIATION || s == R_COMPLETED || s == R_FAILED || s == R_CANCELLED)
#define EPOCH_STEP_RELEASE 0
#define HOLDER_CHECK_RELEASE 1
#define LEASE_MUST_BE_FREE_RELEASE 0

/* complete */
#define MAY_COMPLETE(s) (s == R_APPROVED || s == R_RUNNING)
#define TO_OK_COMPLETE(s) (s == R_COMPLETED || s == R_FAILED || s == R_CANCELLED)
#define EPOCH_STEP_COMPLETE 0
#define HOLDER_CHECK_COMPLETE 1
#define LEASE_MUST_BE_FREE_COMPLETE 0

/* reconcile */
#define MAY_RECONCILE(s) (s == R_NEEDS_RECONCILIATION)
#define TO_OK_RECONCILE(s) (s == R_NEEDS_RECONCILIATION || s == R_RUNNING || s == R_FAILED)
#define EPOCH_STEP_RECONCILE 0
#define HOLDER_CHECK_RECONCILE 0
#define LEASE_MUST_BE_FREE_RECONCILE 0
#define STEP_FROM_RECONCILE(x) (x == S_CLAIMED)
#define STEP_TO_RECONCILE(x) (x == S_DONE || x == S_CONFLICT || x == S_FAILED || x == S_PENDING)

/* cancel (awaiting issue 13 (recovery)) */
#define MAY_CANCEL(s) (s == R_PROPOSED || s == R_APPROVED || s == R_RUNNING || s == R_NEEDS_RECONCILIATION)
#define TO_OK_CANCEL(s) (s == R_CANCELLED)
#define EPOCH_STEP_CANCEL 1
#define HOLDER_CHECK_CANCEL 0
#define LEASE_MUST_BE_FREE_CANCEL 0

/* status */
#define MAY_STATUS(s) (s == R_PROPOSED || s == R_APPROVED || s == R_RUNNING || s == R_NEEDS_RECONCILIATION || s == R_COMPLETED || s == R_FAILED || s == R_CANCELLED)
#define EPOCH_STEP_STATUS 0
#define HOLDER_CHECK_STATUS 0
#define LEASE_MUST_BE_FREE_STATUS 0

/* artifact */
#define MAY_ARTIFACT(s) (s == R_APPROVED || s == R_RUNNING || s == R_NEEDS_RECONCILIATION || s == R_COMPLETED || s == R_FAILED || s == R_CANCELLED)
#define EPOCH_STEP_ARTIFACT 0
#define HOLDER_CHECK_ARTIFACT 0
#define LEASE_MUST_BE_FREE_ARTIFACT 0

/* claim-steps */
#define MAY_CLAIM_STEPS(s) (s == R_APPROVED || s == R_RUNNING)
#define TO_OK_CLAIM_STEPS(s) (s == R_RUNNING)
#define EPOCH_STEP_CLAIM_STEPS 0
#define HOLDER_CHECK_CLAIM_STEPS 1
#define LEASE_MUST_BE_FREE_CLAIM_STEPS 0
#define STEP_FROM_CLAIM_STEPS(x) (x == S_PENDING)
#define STEP_TO_CLAIM_STEPS(x) (x == S_CLAIMED)

/* checkpoint-steps */
#define MAY_CHECKPOINT_STEPS(s) (s == R_RUNNING)
#define TO_OK_CHECKPOINT_STEPS(s) (s == R_RUNNING || s == R_COMPLETED || s == R_FAILED || s == R_CANCELLED)
#define EPOCH_STEP_CHECKPOINT_STEPS 0
#define HOLDER_CHECK_CHECKPOINT_STEPS 1
#define LEASE_MUST_BE_FREE_CHECKPOINT_STEPS 0
#define STEP_FROM_CHECKPOINT_STEPS(x) (x == S_CLAIMED)
#define STEP_TO_CHECKPOINT_STEPS(x) (x == S_DONE || x == S_CONFLICT || x == S_FAILED)
