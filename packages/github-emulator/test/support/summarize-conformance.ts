/**
 * Sums the per-file conformance reports written with WRIT_CONFORMANCE_REPORT=<file>:
 *   WRIT_CONFORMANCE_REPORT=/tmp/conformance.jsonl npm test -- packages/github-emulator
 *   npx tsx packages/github-emulator/test/support/summarize-conformance.ts /tmp/conformance.jsonl
 */
import { readFileSync } from 'node:fs';
import type { ConformanceReport } from './conformance.js';

const file = process.argv[2];
if (!file) throw new Error('Usage: summarize-conformance.ts <report.jsonl>');
const reports = readFileSync(file, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as ConformanceReport);
const union = (pick: (report: ConformanceReport) => string[]): string[] =>
  [...new Set(reports.flatMap(pick))].sort();
const sum = (pick: (report: ConformanceReport) => number): number =>
  reports.reduce((total, report) => total + pick(report), 0);
process.stdout.write(
  `${JSON.stringify(
    {
      testFiles: reports.length,
      restOperationsCovered: union((report) => report.operations).length,
      restResponses: sum((report) => report.restResponses),
      restResponsesValidatedAgainstSchema: sum((report) => report.restValidated),
      restDocumentedStatusWithoutSchema: sum((report) => report.statusOnly),
      restFaultInjected: sum((report) => report.faultInjected),
      restNotModified: sum((report) => report.notModified),
      restRawMedia: sum((report) => report.rawMedia),
      restLegacyAliased: sum((report) => report.legacyAliased),
      restUndocumentedStatuses: union((report) => report.undocumentedStatus),
      graphqlDocumentsValidated: sum((report) => report.graphqlDocuments),
      graphqlInvalidDocumentsRejected: sum((report) => report.graphqlInvalidRejected),
      webhookPayloadsValidated: sum((report) => report.webhooks),
      webhookEventKinds: union((report) => report.webhookEvents),
      failures: reports.flatMap((report) => report.failures),
    },
    null,
    2,
  )}\n`,
);
