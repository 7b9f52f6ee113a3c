/** Types of scripts/checks/lint-workflows.mjs for the tests that import it. */
export interface WorkflowFinding {
  line: number;
  column: number;
  message: string;
  kind: string;
}
export function lintWorkflow(text: string, path: string): Promise<WorkflowFinding[]>;
