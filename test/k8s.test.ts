/**
 * deploy/k8s-indexed-job.yaml against the Kubernetes API: the schema of every field
 * (kubernetes-models, whose validators ajv compiled from the API's OpenAPI document of
 * Kubernetes 1.33), no field the API does not know (what `kubectl apply` refuses by default),
 * the rules between fields that the API server checks and a schema cannot say (counts >= 0,
 * names, what a field names being there, resource names and quantities, the Job's failure
 * rules), and that the workers' memory caps fit the pod's memory limit. The checks are tried
 * on broken copies too, so each can fail; deploy/README.md says what stays unchecked offline.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { BOOK, FULL_SIZE } from '../src/game/index.js';
import { jobFromFlags } from '../src/cli/commands/batch.js';
import { ROOT, runCli } from './cli-helpers.js';
import { solveSpec } from '../src/batch/job.js';

const MANIFEST = join(ROOT, 'deploy', 'k8s-indexed-job.yaml');

/** A manifest: any JSON. */
type Doc = any;

interface SchemaError {
  readonly instancePath: string;
  readonly message?: string;
}

/** The schema's errors for a Job (ajv's, each with the JSON pointer of its field). */
function schemaErrors(doc: Doc): SchemaError[] {
  try {
    new Job(doc).validate();
    return [];
  } catch (e) {
    const errors = (e as { errors?: SchemaError[] }).errors;
    if (!errors) throw e;
    return errors;
  }
}

const pointer = (path: readonly (string | number)[]): string => path.map((k) => '/' + String(k).replace(/~/g, '~0').replace(/\//g, '~1')).join('');

/**
 * The fields the schema does not know. The API's OpenAPI document, and so the schema, lets
 * unknown fields through (the API server drops them, and `kubectl apply` refuses them since
 * Kubernetes 1.27, field validation Strict). A field is known when the schema checks it: a value
 * of no Kubernetes type put there, [[]] (not a string, number, boolean, object, nor a list of
 * those), is refused at that field by every schema the API has for one.
 */
function unknownFields(doc: Doc): string[] {
  const unknown: string[] = [];
  const walk = (node: Doc, path: (string | number)[]): void => {
    if (Array.isArray(node)) node.forEach((v, i) => walk(v, [...path, i]));
    else if (node !== null && typeof node === 'object')
      for (const key of Object.keys(node)) {
        const probe = structuredClone(doc);
        let at = probe;
        for (const k of path) at = at[k];
        at[key] = [[]];
        const p = pointer([...path, key]);
        if (schemaErrors(probe).some((e) => e.instancePath === p || e.instancePath.startsWith(p + '/'))) walk(node[key], [...path, key]);
        else unknown.push(p);
      }
  };
  walk(doc, []);
  return unknown;
}

/**
 * Rules of the Job API that its schema cannot say, as the API reference states them
 * (https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/job-v1/, JobSpec and
 * PodFailurePolicyRule; the same words are in kubernetes-models' batch/v1/JobSpec.d.ts), and
 * https://kubernetes.io/docs/concepts/workloads/controllers/job/ ("Pod Template").
 */
function jobRules(doc: Doc): string[] {
  const spec = doc.spec ?? {};
  const restart = spec.template?.spec?.restartPolicy;
  const problems: string[] = [];
  // "Only a RestartPolicy equal to Never or OnFailure is allowed" (the default, Always, is not).
  if (restart !== 'Never' && restart !== 'OnFailure') problems.push(`restartPolicy ${restart ?? '(Always)'}: a Job's pods take Never or OnFailure`);
  // backoffLimitPerIndex: "It can only be set when Job's completionMode=Indexed, and the Pod's restart policy is Never."
  if (spec.backoffLimitPerIndex !== undefined) {
    if (spec.completionMode !== 'Indexed') problems.push('backoffLimitPerIndex needs completionMode Indexed');
    if (restart !== 'Never') problems.push(`backoffLimitPerIndex needs restartPolicy Never, not ${restart}`);
  }
  // maxFailedIndexes: "It can only be specified when backoffLimitPerIndex is set."
  if (spec.maxFailedIndexes !== undefined && spec.backoffLimitPerIndex === undefined) problems.push('maxFailedIndexes needs backoffLimitPerIndex');
  // completionMode Indexed: ".spec.completions must be specified".
  if (spec.completionMode === 'Indexed' && spec.completions === undefined) problems.push('completionMode Indexed needs completions');
  // Counts the API server takes only when >= 0 (its ValidateNonnegativeField; the schema says integer only).
  for (const k of ['parallelism', 'completions', 'backoffLimit', 'backoffLimitPerIndex', 'maxFailedIndexes'])
    if (typeof spec[k] === 'number' && spec[k] < 0) problems.push(`${k} ${spec[k]}: must be >= 0`);
  if (spec.podFailurePolicy !== undefined) {
    // podFailurePolicy: "This field cannot be used in combination with restartPolicy=OnFailure."
    if (restart !== 'Never') problems.push(`podFailurePolicy needs restartPolicy Never, not ${restart}`);
    // FailIndex: "This value is ... only allowed when backoffLimitPerIndex is set."
    if (spec.podFailurePolicy.rules?.some((r: Doc) => r.action === 'FailIndex') && spec.backoffLimitPerIndex === undefined)
      problems.push('a FailIndex rule needs backoffLimitPerIndex');
    // podReplacementPolicy: "When using podFailurePolicy, Failed is the the only allowed value."
    if (spec.podReplacementPolicy !== undefined && spec.podReplacementPolicy !== 'Failed') problems.push('podFailurePolicy needs podReplacementPolicy Failed');
    (spec.podFailurePolicy.rules ?? []).forEach((r: Doc, i: number) => {
      // "One of onExitCodes and onPodConditions, but not both, can be used in each rule."
      if ((r.onExitCodes === undefined) === (r.onPodConditions === undefined)) problems.push(`podFailurePolicy rule ${i}: one of onExitCodes and onPodConditions, not ${r.onExitCodes ? 'both' : 'neither'}`);
      // values: "must be ordered and must not contain duplicates. Value '0' cannot be used for
      // the In operator. At least one element is required. At most 255 elements are allowed."
      const values: number[] | undefined = r.onExitCodes?.values;
      if (values !== undefined) {
        if (r.onExitCodes.operator === 'In' && values.includes(0)) problems.push(`podFailurePolicy rule ${i}: exit code 0 with operator In`);
        if (values.length < 1 || values.length > 255) problems.push(`podFailurePolicy rule ${i}: ${values.length} exit codes, not 1 to 255`);
        if (values.some((v, k) => k > 0 && v <= values[k - 1]!)) problems.push(`podFailurePolicy rule ${i}: exit codes not in increasing order without duplicates`);
      }
    });
  }
  return problems;
}

/**
 * A Kubernetes quantity in its base unit (cores, bytes): 4, 500m, 4Gi, 1.5G, 1e3; NaN when it is
 * not one (the API's grammar: a signed decimal number, then a binary suffix Ki..Ei, a decimal
 * one n u m k M G T P E, or an exponent).
 */
function quantity(q: string | number): number {
  const m = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/.exec(String(q));
  if (!m) return NaN;
  const scale: Record<string, number> = {
    n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
  };
  const suffix = m[2];
  return Number(m[1]) * (suffix === undefined ? 1 : /^[eE]/.test(suffix) ? 10 ** Number(suffix.slice(1)) : scale[suffix]!);
}

/** A DNS-1123 label (`DNS_LABEL`): at most 63 lower-case letters, digits and '-', a letter or digit at each end. */
const DNS_LABEL = /^(?=.{1,63}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** A DNS-1123 subdomain: labels joined by '.'. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * The names the API server checks and the schema (plain strings) cannot: "The name of a Job
 * must be a valid DNS subdomain value ... no longer than 63 characters" (it is the value of
 * its pods' job-name label; https://kubernetes.io/docs/concepts/workloads/controllers/job/);
 * a container's and a volume's name are each a DNS_LABEL, unique within the pod
 * (kubernetes-models' v1/Container.d.ts, v1/Volume.d.ts).
 */
function nameRules(doc: Doc): string[] {
  const problems: string[] = [];
  const name = doc.metadata?.name;
  if (typeof name !== 'string' || !DNS_SUBDOMAIN.test(name) || name.length > 63)
    problems.push(`metadata.name ${JSON.stringify(name)}: a Job's name is a DNS subdomain of at most 63 characters`);
  const pod = doc.spec?.template?.spec ?? {};
  for (const [list, what] of [[[...(pod.initContainers ?? []), ...(pod.containers ?? [])], 'container'], [pod.volumes ?? [], 'volume']] as const) {
    const seen = new Set<string>();
    for (const x of list as Doc[]) {
      if (typeof x.name === 'string' && !DNS_LABEL.test(x.name)) problems.push(`${what} name ${JSON.stringify(x.name)}: not a DNS-1123 label`);
      if (seen.has(x.name)) problems.push(`${what} name ${JSON.stringify(x.name)} is given twice`);
      seen.add(x.name);
    }
  }
  return problems;
}

/**
 * What a field names must be there: a volumeMount's name "must match the Name of a Volume"
 * (v1/VolumeMount.d.ts); a podFailurePolicy rule's containerName "should match one the
 * container or initContainer names in the pod template" (batch/v1/PodFailurePolicyOnExitCodesRequirement.d.ts),
 * and so must a resourceFieldRef's containerName.
 */
function references(doc: Doc): string[] {
  const problems: string[] = [];
  const pod = doc.spec?.template?.spec ?? {};
  const containers: Doc[] = [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
  const containerNames = new Set(containers.map((c) => c.name));
  const volumes = new Set((pod.volumes ?? []).map((v: Doc) => v.name));
  for (const c of containers) {
    for (const m of c.volumeMounts ?? []) if (!volumes.has(m.name)) problems.push(`container ${c.name}: volumeMount ${JSON.stringify(m.name)} names no volume of the pod`);
    for (const e of c.env ?? []) {
      const ref = e.valueFrom?.resourceFieldRef;
      if (ref?.containerName !== undefined && !containerNames.has(ref.containerName)) problems.push(`env ${e.name}: resourceFieldRef.containerName ${JSON.stringify(ref.containerName)} names no container`);
    }
  }
  for (const r of doc.spec?.podFailurePolicy?.rules ?? []) {
    const name = r.onExitCodes?.containerName;
    if (name !== undefined && !containerNames.has(name)) problems.push(`podFailurePolicy: containerName ${JSON.stringify(name)} names no container`);
  }
  return problems;
}

/** The resources every container may name without a domain (v1 ResourceName): the rest must be qualified (example.com/gpu). */
const STANDARD_RESOURCES = /^(cpu|memory|ephemeral-storage|hugepages-.+)$/;

/**
 * A container's resources: each name a standard resource or a qualified one (the API refuses
 * `cpuu`), each value a quantity >= 0, and "Requests cannot exceed Limits"
 * (v1/ResourceRequirements.d.ts).
 */
function resourceRules(doc: Doc): string[] {
  const problems: string[] = [];
  const pod = doc.spec?.template?.spec ?? {};
  for (const c of [...(pod.initContainers ?? []), ...(pod.containers ?? [])] as Doc[]) {
    const { requests = {}, limits = {} } = c.resources ?? {};
    for (const [kind, set] of [['requests', requests], ['limits', limits]] as const)
      for (const [name, value] of Object.entries(set as Record<string, string | number>)) {
        if (!STANDARD_RESOURCES.test(name) && !/^[a-z0-9.-]+\/[A-Za-z0-9._-]+$/.test(name)) problems.push(`container ${c.name}: ${kind}.${name}: not a resource name the API knows (cpu, memory, ephemeral-storage, hugepages-*, or domain/name)`);
        const q = quantity(value);
        if (!(q >= 0)) problems.push(`container ${c.name}: ${kind}.${name} ${JSON.stringify(value)}: not a quantity >= 0`);
      }
    for (const [name, value] of Object.entries(requests as Record<string, string | number>)) {
      const limit = (limits as Record<string, string | number>)[name];
      if (limit !== undefined && quantity(value) > quantity(limit)) problems.push(`container ${c.name}: requests.${name} ${value} is more than limits.${name} ${limit}`);
    }
  }
  return problems;
}

/**
 * Node's own share of a pod, MiB: the main thread and each worker's V8 heap, and what
 * --max-memory does not cover (depth-first search's exact table beside its signatures, at most
 * 2.5 MB). Measured: 84 MB resident for the main thread and one worker, 105 MB with two
 * (`limited batch --from 1 --count 8 --preset fast --max-nodes 200000 --max-memory 16`).
 */
const NODE_MIB = 512;

/** The batch's workers and each one's table cap (MiB) as `limited batch` reads the container's args, and the pod's memory limit. */
function memoryPlan(doc: Doc): { workers: number; capMiB: number; limitMiB: number; problems: string[] } {
  const c = doc.spec.template.spec.containers[0];
  const problems: string[] = [];
  const opts: Record<string, string> = {};
  for (const a of c.args.slice(1) as string[]) {
    const m = /^--([a-z-]+)=(.*)$/.exec(a);
    if (!m) throw new Error(`an argument not as --name=value: ${a}`);
    opts[m[1]!.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase())] = m[2]!;
  }
  // --workers=$(WORKERS), the env var from limits.cpu (rounded up, as the downward API does).
  const env = (c.env ?? []).find((e: Doc) => `$(${e.name})` === opts['workers']);
  const ref = env?.valueFrom?.resourceFieldRef;
  if (ref?.resource !== 'limits.cpu') problems.push(`--workers is not the CPU limit (${opts['workers']})`);
  const workers = Math.ceil(quantity(c.resources.limits.cpu) / quantity(ref?.divisor ?? 1));
  // The cap as `limited batch` takes it: --max-memory, else the preset's.
  const capMiB = jobFromFlags(opts, 'v1', BOOK, FULL_SIZE).budgets.maxMemoryMB;
  const limitMiB = quantity(c.resources.limits.memory) / 2 ** 20;
  if (workers * capMiB + NODE_MIB > limitMiB)
    problems.push(`${workers} workers x --max-memory ${capMiB} MiB + ${NODE_MIB} MiB for Node = ${workers * capMiB + NODE_MIB} MiB > the ${limitMiB} MiB limit`);
  if (Number(opts['shards']) !== doc.spec.completions) problems.push(`--shards ${opts['shards']} is not completions ${doc.spec.completions}`);
  return { workers, capMiB, limitMiB, problems };
}

/** Everything the test finds wrong with a Job, one line each. */
function problems(doc: Doc): string[] {
  return [
    ...schemaErrors(doc).map((e) => `schema: ${e.instancePath} ${e.message}`),
    ...unknownFields(doc).map((p) => `unknown field ${p}`),
    ...jobRules(doc),
    ...nameRules(doc),
    ...references(doc),
    ...resourceRules(doc),
    ...memoryPlan(doc).problems,
  ];
}

function load(text: string): Doc[] {
  const docs = parseAllDocuments(text);
  for (const d of docs) expect(d.errors, String(d.errors[0])).toEqual([]);
  return docs.map((d) => d.toJSON());
}

describe('deploy/k8s-indexed-job.yaml', () => {
  const docs = (): Doc[] => load(readFileSync(MANIFEST, 'utf8'));
  /** The problems `problems` finds in the manifest's Job after `change`. */
  const broken = (change: (d: Doc) => void): string[] => {
    const d = structuredClone(docs()[0]);
    change(d);
    return problems(d);
  };

  it('is one batch/v1 Job that the Kubernetes API accepts: schema, no unknown field, the Job rules, memory that fits', () => {
    expect(docs().map((d) => `${d.apiVersion} ${d.kind}`)).toEqual(['batch/v1 Job']);
    const job = docs()[0];
    expect(problems(job)).toEqual([]);
    const plan = memoryPlan(job);
    expect(plan).toEqual({ workers: 4, capMiB: 768, limitMiB: 4096, problems: [] });
  });

  it('its check refuses what the API refuses, and memory that does not fit', () => {
    // backoffLimitPerIndex with restartPolicy OnFailure: the Job as it was.
    expect(broken((d) => (d.spec.template.spec.restartPolicy = 'OnFailure'))).toEqual([
      'backoffLimitPerIndex needs restartPolicy Never, not OnFailure',
      'podFailurePolicy needs restartPolicy Never, not OnFailure',
    ]);
    expect(broken((d) => delete d.spec.completionMode)).toEqual(['backoffLimitPerIndex needs completionMode Indexed']);
    expect(broken((d) => delete d.spec.backoffLimitPerIndex)).toEqual(['a FailIndex rule needs backoffLimitPerIndex']);
    // A typo'd field, at the top and deep down.
    expect(broken((d) => ((d.spec.completion = d.spec.completions), delete d.spec.completions))).toEqual([
      'unknown field /spec/completion',
      'completionMode Indexed needs completions',
      '--shards 10 is not completions undefined',
    ]);
    expect(broken((d) => (d.spec.template.spec.containers[0].volumeMount = [{ name: 'results', mountPath: '/results' }]))).toEqual([
      'unknown field /spec/template/spec/containers/0/volumeMount',
    ]);
    // Values the schema refuses.
    expect(broken((d) => (d.spec.completionMode = 'indexed'))).toEqual([
      'schema: /spec/completionMode must be equal to one of the allowed values',
      'backoffLimitPerIndex needs completionMode Indexed',
    ]);
    expect(broken((d) => (d.spec.parallelism = '10'))).toEqual(['schema: /spec/parallelism must be integer']);
    expect(broken((d) => delete d.spec.template.spec.containers[0].name)).toEqual([
      'schema: /spec/template/spec/containers/0 must have required property name',
      'podFailurePolicy: containerName "batch" names no container',
    ]);
    // The memory: without --max-memory each worker may take the preset's 2048 MiB.
    expect(broken((d) => (d.spec.template.spec.containers[0].args = d.spec.template.spec.containers[0].args.filter((a: string) => !a.startsWith('--max-memory'))))).toEqual([
      '4 workers x --max-memory 2048 MiB + 512 MiB for Node = 8704 MiB > the 4096 MiB limit',
    ]);
    expect(broken((d) => (d.spec.template.spec.containers[0].resources.limits = { cpu: '8', memory: '4Gi' }))).toEqual([
      '8 workers x --max-memory 768 MiB + 512 MiB for Node = 6656 MiB > the 4096 MiB limit',
    ]);
  });

  it('its check refuses what the API server refuses beyond the schema: counts, names, references, quantities, failure rules', () => {
    const c0 = (d: Doc): Doc => d.spec.template.spec.containers[0];
    const rules = (d: Doc): Doc[] => d.spec.podFailurePolicy.rules;
    expect(broken((d) => (d.spec.parallelism = -1))).toEqual(['parallelism -1: must be >= 0']);
    expect(broken((d) => (d.spec.backoffLimitPerIndex = -5))).toEqual(['backoffLimitPerIndex -5: must be >= 0']);
    expect(broken((d) => (d.metadata.name = 'Limited_Batch'))).toEqual(['metadata.name "Limited_Batch": a Job\'s name is a DNS subdomain of at most 63 characters']);
    expect(broken((d) => (d.metadata.name = 'l'.repeat(64)))).toEqual([`metadata.name "${'l'.repeat(64)}": a Job's name is a DNS subdomain of at most 63 characters`]);
    // The container renamed: its name is not a label, and the failure rule names it no more.
    expect(broken((d) => (c0(d).name = 'Batch'))).toEqual(['container name "Batch": not a DNS-1123 label', 'podFailurePolicy: containerName "batch" names no container']);
    expect(broken((d) => (rules(d)[1].onExitCodes.values = [0, 2, 3]))).toEqual(['podFailurePolicy rule 1: exit code 0 with operator In']);
    expect(broken((d) => (rules(d)[1].onExitCodes.values = [3, 2]))).toEqual(['podFailurePolicy rule 1: exit codes not in increasing order without duplicates']);
    expect(broken((d) => (rules(d)[1].onExitCodes.containerName = 'worker'))).toEqual(['podFailurePolicy: containerName "worker" names no container']);
    expect(broken((d) => (c0(d).volumeMounts[0].name = 'result'))).toEqual(['container batch: volumeMount "result" names no volume of the pod']);
    expect(broken((d) => (c0(d).resources.requests.cpu = '8'))).toEqual(['container batch: requests.cpu 8 is more than limits.cpu 4']);
    expect(broken((d) => (c0(d).resources.requests = { cpuu: '4', memory: '4Gi' }))).toEqual([
      'container batch: requests.cpuu: not a resource name the API knows (cpu, memory, ephemeral-storage, hugepages-*, or domain/name)',
    ]);
    // The schema checks a quantity's form; its sign is the server's.
    expect(broken((d) => (c0(d).resources.requests.memory = '-4Gi'))).toEqual(['container batch: requests.memory "-4Gi": not a quantity >= 0']);
    expect(broken((d) => (rules(d)[0].onExitCodes = { containerName: 'batch', operator: 'In', values: [2] }))).toEqual([
      'podFailurePolicy rule 0: one of onExitCodes and onPodConditions, not both',
    ]);
  });

  it('reads quantities as the API writes them', () => {
    expect([quantity('4'), quantity('500m'), quantity('4Gi'), quantity('1.5G'), quantity('1e3'), quantity('.5'), quantity(2)]).toEqual([4, 0.5, 2 ** 32, 1.5e9, 1000, 0.5, 2]);
    for (const bad of ['4 Gi', '4gi', 'Gi', '', '1.2.3']) expect(quantity(bad), bad).toBeNaN();
  });
});

/**
 * An experiment's Indexed Job (`limited experiment winrate|tactics --print-job k8s`): the pods'
 * workers and the most a worker's deal may take (the larger of phase 1's preset cap and
 * --long-memory, 4096 MiB by default), with Node's share, within the memory limit; --tasks equal
 * to completions; and the experiment's own options read back as it takes them.
 */
function experimentPlan(doc: Doc): { workers: number; capMiB: number; limitMiB: number; problems: string[] } {
  const c = doc.spec.template.spec.containers[0];
  const problems: string[] = [];
  const opts: Record<string, string> = {};
  for (const a of c.args.slice(2) as string[]) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new Error(`an argument not as --name=value: ${a}`);
    opts[m[1]!] = m[2] ?? 'true';
  }
  const env = (c.env ?? []).find((e: Doc) => `$(${e.name})` === opts['workers']);
  if (env?.valueFrom?.resourceFieldRef?.resource !== 'limits.cpu') problems.push(`--workers is not the CPU limit (${opts['workers']})`);
  const workers = Math.ceil(quantity(c.resources.limits.cpu) / quantity(env?.valueFrom?.resourceFieldRef?.divisor ?? 1));
  const phase1 = solveSpec('v1', BOOK, FULL_SIZE, { preset: 'portfolio', maxNodes: Number(opts['max-nodes'] ?? (c.args[1] === 'tactics' ? 100000 : 3000000)) }).budgets.maxMemoryMB;
  const capMiB = Math.max(phase1, Number(opts['long-memory'] ?? 4096));
  const limitMiB = quantity(c.resources.limits.memory) / 2 ** 20;
  if (workers * capMiB + NODE_MIB > limitMiB) problems.push(`${workers} workers x ${capMiB} MiB + ${NODE_MIB} MiB for Node = ${workers * capMiB + NODE_MIB} MiB > the ${limitMiB} MiB limit`);
  if (Number(opts['tasks']) !== doc.spec.completions) problems.push(`--tasks ${opts['tasks']} is not completions ${doc.spec.completions}`);
  if (!String(opts['out-dir']).startsWith('/results/')) problems.push(`--out-dir ${opts['out-dir']} is not on the results volume`);
  return { workers, capMiB, limitMiB, problems };
}

const experimentProblems = (doc: Doc): string[] => [
  ...schemaErrors(doc).map((e) => `schema: ${e.instancePath} ${e.message}`),
  ...unknownFields(doc).map((p) => `unknown field ${p}`),
  ...jobRules(doc),
  ...experimentPlan(doc).problems,
];

describe('experiments as Indexed Jobs (--print-job k8s), and deploy/k8s-winrate-book.yaml', () => {
  const BOOK_JOB = join(ROOT, 'deploy', 'k8s-winrate-book.yaml');

  it('the committed book estimate is what its command prints, and the API accepts it: schema, no unknown field, the Job rules, memory that fits', () => {
    const text = readFileSync(BOOK_JOB, 'utf8');
    const printedBy = /printed by:\n#\s+limited (experiment .*)$/m.exec(text)![1]!.split(' ');
    const r = runCli(printedBy);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(text);
    const docs = load(text);
    expect(docs.map((d) => `${d.apiVersion} ${d.kind}`)).toEqual(['batch/v1 Job']);
    expect(experimentProblems(docs[0])).toEqual([]);
    expect(experimentPlan(docs[0])).toEqual({ workers: 4, capMiB: 4096, limitMiB: 4 * 4096 + 512, problems: [] });
    // The Slurm script beside it is its command's too.
    const slurm = readFileSync(join(ROOT, 'deploy', 'slurm-winrate-book.sh'), 'utf8');
    const s = runCli(/printed by:\n#\s+limited (experiment .*)$/m.exec(slurm)![1]!.split(' '));
    expect(s.stdout).toBe(slurm);
    expect(slurm).toMatch(/^#SBATCH --array=0-9$/m);
    expect(slurm).toMatch(/--task="\$\(\(task \+ 1\)\)\/10"/);
  });

  it('experiment tactics and winrate print Jobs the API accepts for other sizes and memories; the check refuses one that does not fit', () => {
    for (const args of [
      ['experiment', 'tactics', '--count', '1000000', '--solver-count', '2000', '--out-dir', 'results/tactics', '--print-job', 'k8s', '--tasks', '25', '--workers', '2'],
      ['experiment', 'winrate', '--spaces', 'hold', '--count', '2000', '--long-memory', '1024', '--out-dir', '/results/hold', '--print-job', 'k8s', '--tasks', '3', '--workers', '8'],
    ]) {
      const r = runCli(args);
      expect(r.status, r.stderr).toBe(0);
      const doc = load(r.stdout)[0];
      expect(experimentProblems(doc), args.join(' ')).toEqual([]);
      expect(doc.spec.completions).toBe(Number(args[args.indexOf('--tasks') + 1]));
    }
    const doc = load(readFileSync(BOOK_JOB, 'utf8'))[0];
    doc.spec.template.spec.containers[0].resources.limits.memory = '8Gi';
    expect(experimentProblems(doc)).toEqual(['4 workers x 4096 MiB + 512 MiB for Node = 16896 MiB > the 8192 MiB limit']);
    doc.spec.completions = 9;
    expect(experimentProblems(doc)).toContain('--tasks 10 is not completions 9');
  });
});
