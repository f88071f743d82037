import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { promtool } from '../support/promtool.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportedMetricNames } from '../support/metricsText.js';
import { exportingWorkerMetrics, type ExportedMetrics } from './exportingWorker.js';
import { promqlMetricNames } from './promql.js';

const RULES = 'deploy/prometheus/alerts.yml';
const RULE_TESTS = 'deploy/prometheus/alerts.test.yml';

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleTests {
  rule_files: string[];
  tests: { name: string; alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[];
}

const rules = (parse(await readFile(RULES, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((group) => group.rules);
const ruleTests = parse(await readFile(RULE_TESTS, 'utf8')) as RuleTests;

let worker: ExportedMetrics;
beforeAll(async () => {
  worker = await exportingWorkerMetrics();
});
afterAll(async () => {
  await worker.close();
});

describe('the alert rules, deploy/prometheus/alerts.yml', () => {
  it('pass `promtool check rules`', async () => {
    const { code, output } = await promtool('check', 'rules', RULES);
    expect(code, output).toBe(0);
    expect(output).toContain(`SUCCESS: ${rules.length} rules found`);
  });

  it('pass their unit tests, `promtool test rules`', async () => {
    const { code, output } = await promtool('test', 'rules', RULE_TESTS);
    expect(code, output).toBe(0);
    expect(output).toContain('SUCCESS');
  });

  it('have a unit test case in which each alert fires, and that tests alerts.yml', () => {
    expect(ruleTests.rule_files).toEqual(['alerts.yml']);
    const fired = new Set(ruleTests.tests.flatMap((test) => (test.alert_rule_test ?? []).filter((check) => (check.exp_alerts ?? []).length > 0).map((check) => check.alertname)));
    expect(rules.map((rule) => rule.alert).filter((alert) => !fired.has(alert))).toEqual([]);
  });

  it('name in their expressions only metrics a running worker exports', () => {
    const exported = exportedMetricNames(worker.text);
    const unknown = rules.flatMap((rule) => promqlMetricNames(rule.expr).filter((name) => !exported.has(name)).map((name) => `${rule.alert}: ${name}`));
    expect(unknown).toEqual([]);
    expect(rules.filter((rule) => promqlMetricNames(rule.expr).length === 0).map((rule) => rule.alert)).toEqual([]);
  });

  it('give each alert a for duration, a severity, a summary, and a description naming the job or source it groups by', () => {
    const lacking = rules.flatMap((rule) => {
      const grouped = [...rule.expr.matchAll(/\bby \(([^)]*)\)/g)].flatMap((match) => match[1]!.split(',').map((label) => label.trim()));
      const named = ['job', 'source'].filter((label) => grouped.includes(label));
      const why = [
        !rule.for && 'no for',
        !['critical', 'warning'].includes(rule.labels?.severity ?? '') && 'no severity',
        !rule.annotations?.summary && 'no summary',
        !rule.annotations?.description && 'no description',
        ...named.filter((label) => !rule.annotations?.description?.includes(`{{ $labels.${label} }}`)).map((label) => `description without its ${label}`),
      ].filter(Boolean);
      return why.length === 0 ? [] : [`${rule.alert}: ${why.join(', ')}`];
    });
    expect(lacking).toEqual([]);
  });
});
