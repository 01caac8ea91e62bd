"""
Writes probe/workflow_tasks/main.tf: one resource per workflow task resource of the provider that
the other configurations leave out, with the members its documentation requires in task_params.

    python3 tools/terraform/generate/workflow_tasks.py <provider source dir> > probe/workflow_tasks/main.tf
    terraform fmt probe/workflow_tasks/main.tf

Values: an enumerated member takes its first value, an id a placeholder id, a string a text with
the revision; blocks get their own required members.
"""
import re, glob, os, sys
DOCS = os.path.join(sys.argv[1], 'docs', 'resources')
SKIP = {'workflow_task_add_to_timeline', 'workflow_task_create_jira_issue', 'workflow_task_http_client', 'workflow_task_print', 'workflow_task_send_email'}
HEADER = """# Every workflow task resource of the provider that the other configurations leave out (141; the
# workflows configuration has add_to_timeline, create_jira_issue, http_client, print and
# send_email), each with the members its documentation requires in task_params, under one simple
# workflow. Generated from the provider's docs/resources/workflow_task_*.md (tools/terraform/README.md).
# Taproot stores tasks and runs none of them (docs/workflows.md), so names and ids here need not
# name real integrations.

resource "rootly_workflow_simple" "tasks" {
  name = "tf-probe workflow of every task ${var.rev}"
  trigger_params {
    triggers = ["slack_command"]
  }
  enabled = true
}
"""

def sections(text):
    # anchor name -> (required lines)
    out = {}
    for m in re.finditer(r'### Nested Schema for `([^`]+)`\n(.*?)(?=\n<a id=|\n## Import|\Z)', text, re.S):
        name, body = m.group(1), m.group(2)
        req = re.search(r'Required:\n\n(.*?)(?:\n\n|\Z)', body, re.S)
        out[name] = [l for l in (req.group(1).splitlines() if req else []) if l.startswith('- `')]
    return out

def value(line, path, secs, depth):
    m = re.match(r'- `([^`]+)` \(([^)]*)\)(.*)', line)
    name, typ, rest = m.group(1), m.group(2), m.group(3)
    enum = re.search(r'Value must be one of (`[^.]*`)', rest)
    enums = re.findall(r'`([^`]+)`', enum.group(1)) if enum else []
    if typ.startswith('Block'):
        sub = secs.get(f'{path}.{name}', [])
        inner = block(sub, f'{path}.{name}', secs, depth + 1)
        return ('block', name, inner)
    if typ == 'String':
        if enums: v = f'"{enums[0]}"'
        elif name.endswith('_id') or name == 'id': v = '"tf-probe-id"'
        else: v = '"tf-probe ${var.rev}"'
    elif typ == 'List of String': v = f'["{enums[0]}"]' if enums else '["tf-probe"]'
    elif typ == 'Number': v = '1'
    elif typ == 'Boolean': v = 'true'
    elif typ.startswith('Map'): v = '{ id = "tf-probe-id", name = "tf-probe" }'
    elif typ == 'List of Number': v = '[1]'
    else: raise Exception(f'{path}.{name}: {typ}')
    return ('attr', name, v)

def block(lines, path, secs, depth):
    return [value(l, path, secs, depth) for l in lines]

def render(items, ind):
    s = ''
    width = max([len(n) for k, n, _ in items if k == 'attr'] or [0])
    for k, n, v in items:
        if k == 'attr': s += f'{ind}{n.ljust(width)} = {v}\n'
    for k, n, v in items:
        if k == 'block': s += f'{ind}{n} {{\n{render(v, ind + "  ")}{ind}}}\n'
    return s

out = [HEADER]
for f in sorted(glob.glob(f'{DOCS}/workflow_task_*.md')):
    res = os.path.basename(f)[:-3]
    if res in SKIP: continue
    text = open(f).read()
    secs = sections(text)
    if 'task_params' not in secs: print('no task_params:', res, file=sys.stderr); continue
    tp = block(secs['task_params'], 'task_params', secs, 0)
    short = res[len('workflow_task_'):]
    out.append(f'resource "rootly_{res}" "probe" {{\n  workflow_id = rootly_workflow_simple.tasks.id\n  name        = "tf-probe {short} ${{var.rev}}"\n  task_params {{\n{render(tp, "    ")}  }}\n}}\n')
print('\n'.join(out))
