"""
Writes probe/data_sources/main.tf: records made by the configuration, each looked up by the data
sources' filters that name one record, with a postcondition on the id found.

    python3 tools/terraform/generate/data_sources.py > probe/data_sources/main.tf
    terraform fmt probe/data_sources/main.tf
"""
import sys
# (data source, resource type, resource body, the filters that name one record)
R = [
 ('severity','severity','  name     = "tf-probe ds severity ${var.rev}"\n  severity = "low"\n',['name','slug']),
 ('environment','environment','  name = "tf-probe ds environment ${var.rev}"\n',['name','slug']),
 ('functionality','functionality','  name = "tf-probe ds functionality ${var.rev}"\n',['name','slug']),
 ('service','service','  name = "tf-probe ds service ${var.rev}"\n',['name','slug']),
 ('team','team','  name = "tf-probe ds team ${var.rev}"\n',['name','slug']),
 ('cause','cause','  name = "tf-probe ds cause ${var.rev}"\n',['name','slug']),
 ('incident_type','incident_type','  name = "tf-probe ds incident type ${var.rev}"\n',['name','slug']),
 ('incident_role','incident_role','  name    = "tf-probe ds incident role ${var.rev}"\n  summary = "Leads"\n',['name','slug']),
 ('escalation_policy','escalation_policy','  name      = "tf-probe ds policy ${var.rev}"\n  group_ids = [rootly_team.ds.id]\n',['name']),
 ('schedule','schedule','  name = "tf-probe ds schedule ${var.rev}"\n',['name']),
 ('workflow','workflow_simple','  name = "tf-probe ds workflow ${var.rev}"\n  trigger_params {\n    triggers = ["slack_command"]\n  }\n',['name','slug']),
 ('workflow_group','workflow_group','  name = "tf-probe ds workflow group ${var.rev}"\n  kind = "simple"\n',['name','slug']),
 ('status_page','status_page','  title = "tf-probe ds status ${var.rev}"\n',['slug']),
 ('alert_urgency','alert_urgency','  name        = "tf-probe ds urgency ${var.rev}"\n  description = "tf"\n',['name']),
 ('heartbeat','heartbeat','  name                     = "tf-probe ds heartbeat ${var.rev}"\n  interval                 = 10\n  interval_unit            = "minutes"\n  alert_summary            = "missed"\n  notification_target_type = "Group"\n  notification_target_id   = rootly_team.ds.id\n',['name']),
 ('catalog','catalog','  name = "tf-probe ds catalog ${var.rev}"\n',['name']),
 ('form_field','form_field','  name       = "tf-probe ds field ${var.rev}"\n  kind       = "custom"\n  input_kind = "text"\n',['name','slug']),
 ('custom_form','custom_form','  name    = "tf-probe ds custom form ${var.rev}"\n  command = "tf-probe-ds-${var.rev}"\n',['name','slug','command']),
 ('role','role','  name                 = "tf-probe ds role ${var.rev}"\n  services_permissions = ["read"]\n',['name','slug']),
 ('on_call_role','on_call_role','  name                  = "tf-probe ds on-call role ${var.rev}"\n  schedules_permissions = ["read"]\n',['name','slug']),
 ('incident_permission_set','incident_permission_set','  name = "tf-probe ds permission set ${var.rev}"\n',['name','slug']),
 ('sla','sla','  name                              = "tf-probe ds SLA ${var.rev}"\n  condition_match_type              = "ALL"\n  assignment_deadline_days          = 3\n  assignment_deadline_parent_status = "started"\n  completion_deadline_days          = 5\n  completion_deadline_parent_status = "resolved"\n  manager_role_id                   = rootly_incident_role.ds.id\n  conditions {\n    conditionable_type = "SLAs::BuiltInFieldCondition"\n    property           = "severity"\n    operator           = "is_one_of"\n    values             = [rootly_severity.ds.id]\n  }\n',['name','slug']),
 ('sub_status','sub_status','  name          = "tf-probe ds sub-status ${var.rev}"\n  parent_status = "started"\n',['name','slug','parent_status']),
 ('webhooks_endpoint','webhooks_endpoint','  name        = "tf-probe ds endpoint ${var.rev}"\n  url         = "https://example.com/ds/${var.rev}"\n  event_types = ["incident.created"]\n',['name','slug']),
 ('communications_type','communications_type','  name  = "tf-probe ds comms type ${var.rev}"\n  color = "#D0021B"\n',['name','slug']),
 ('communications_stage','communications_stage','  name = "tf-probe ds comms stage ${var.rev}"\n',['name','slug']),
 ('alert_field','alert_field','  name = "tf-probe ds alert field ${var.rev}"\n',['name']),
 ('form_set','form_set','  name  = "tf-probe ds form set ${var.rev}"\n  forms = ["slack_new_incident_form"]\n',['slug']),
]
out = ['# Data sources look up what this configuration makes, by each filter they offer that names one\n# record (name, slug, ...); each postcondition requires the record found to be the one made.\n']
for ds, rt, body, lookups in R:
    out.append(f'resource "rootly_{rt}" "ds" {{\n{body}}}\n')
    for a in lookups:
        val = f'rootly_{rt}.ds.{a}'
        out.append(f'data "rootly_{ds}" "by_{a}" {{\n  {a} = {val}\n  lifecycle {{\n    postcondition {{\n      condition     = self.id == rootly_{rt}.ds.id\n      error_message = "rootly_{ds} by {a} found ${{self.id}}, not ${{rootly_{rt}.ds.id}}"\n    }}\n  }}\n}}\n')
P = [('services','service'),('teams','team'),('environments','environment'),('causes','cause'),('incident_types','incident_type'),('functionalities','functionality'),('incident_roles','incident_role')]
out.append('# Plural data sources: the record made is among those found by name. rootly_severities is left\n# out: this build\'s data source reads a `color` it does not declare, and crashes.\n')
for ds, rt in P:
    out.append(f'data "rootly_{ds}" "by_name" {{\n  name = rootly_{rt}.ds.name\n  lifecycle {{\n    postcondition {{\n      condition     = contains(self.{ds}[*].id, rootly_{rt}.ds.id)\n      error_message = "rootly_{ds} by name lacks ${{rootly_{rt}.ds.id}}"\n    }}\n  }}\n}}\n')
sys.stdout.write('\n'.join(out))
