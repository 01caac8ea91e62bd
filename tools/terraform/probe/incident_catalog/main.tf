resource "rootly_environment" "probe" {
  name          = "tf-probe environment ${var.rev}"
  description   = "revision ${var.rev}"
  color         = var.rev == 1 ? "#FF0000" : "#FFA500"
  notify_emails = var.rev == 1 ? ["foo@acme.com"] : ["foo@acme.com", "bar@acme.com"]
  slack_channels {
    id   = "C06A4RZR9"
    name = "Channel ${var.rev}"
  }
}

resource "rootly_functionality" "probe" {
  name            = "tf-probe functionality ${var.rev}"
  description     = "revision ${var.rev}"
  color           = "#800080"
  environment_ids = var.rev == 1 ? [] : [rootly_environment.probe.id]
  slack_aliases {
    id   = "S0614TZR7"
    name = "Alias ${var.rev}"
  }
}

resource "rootly_cause" "probe" {
  name        = "tf-probe cause ${var.rev}"
  description = "revision ${var.rev}"
}

resource "rootly_incident_type" "probe" {
  name        = "tf-probe incident type ${var.rev}"
  description = "revision ${var.rev}"
  color       = var.rev == 1 ? "#FF0000" : "#FFA500"
}

resource "rootly_incident_role" "probe" {
  name        = "tf-probe role ${var.rev}"
  summary     = "Leads the response ${var.rev}"
  description = "revision ${var.rev}"
  optional    = var.rev == 2
  enabled     = true
}

resource "rootly_incident_role_task" "probe" {
  incident_role_id = rootly_incident_role.probe.id
  task             = "Open a war room ${var.rev}"
  priority         = var.rev == 1 ? "high" : "low"
}

resource "rootly_sub_status" "probe" {
  name          = "tf-probe investigating ${var.rev}"
  parent_status = "started"
  description   = "revision ${var.rev}"
}

resource "rootly_severity" "probe" {
  name     = "tf-probe catalog severity"
  severity = "critical"
}

resource "rootly_service" "probe" {
  name = "tf-probe catalog service"
}

resource "rootly_playbook" "probe" {
  title        = "tf-probe playbook ${var.rev}"
  summary      = "revision ${var.rev}"
  external_url = "https://example.com/playbook/${var.rev}"
  severity_ids = [rootly_severity.probe.id]
  service_ids  = var.rev == 1 ? [rootly_service.probe.id] : []
}

resource "rootly_playbook_task" "probe" {
  playbook_id = rootly_playbook.probe.id
  task        = "Check dashboards ${var.rev}"
  description = "revision ${var.rev}"
}

# The provider's documented example with a condition and notification offsets.
resource "rootly_sla" "probe" {
  name                              = "tf-probe SLA ${var.rev}"
  description                       = "revision ${var.rev}"
  condition_match_type              = var.rev == 1 ? "ALL" : "ANY"
  assignment_deadline_days          = 3
  assignment_deadline_parent_status = "started"
  assignment_skip_weekends          = var.rev == 2
  completion_deadline_days          = 5 + var.rev
  completion_deadline_parent_status = "resolved"
  completion_skip_weekends          = false
  manager_role_id                   = rootly_incident_role.probe.id
  conditions {
    conditionable_type = "SLAs::BuiltInFieldCondition"
    property           = "severity"
    operator           = "is_one_of"
    values             = [rootly_severity.probe.id]
  }
  notification_configurations {
    offset_type = "before_due"
    offset_days = var.rev
  }
}

resource "rootly_retrospective_process" "probe" {
  name      = "tf-probe catalog retrospective"
  copy_from = "starter_template"
  retrospective_process_matching_criteria {
    severity_ids = [rootly_severity.probe.id]
  }
}

resource "rootly_retrospective_step" "probe" {
  retrospective_process_id = rootly_retrospective_process.probe.id
  title                    = "tf-probe step ${var.rev}"
  description              = "revision ${var.rev}"
  due_after_days           = var.rev
  incident_role_id         = rootly_incident_role.probe.id
  skippable                = var.rev == 2
}

resource "rootly_retrospective_process_group" "probe" {
  retrospective_process_id = rootly_retrospective_process.probe.id
  sub_status_id            = rootly_sub_status.probe.id
}

resource "rootly_retrospective_process_group_step" "probe" {
  retrospective_process_group_id = rootly_retrospective_process_group.probe.id
  retrospective_step_id          = rootly_retrospective_step.probe.id
}

# A singleton per kind: the provider's create finds it by kind and updates it; destroy only forgets it.
resource "rootly_retrospective_configuration" "probe" {
  kind              = "mandatory"
  severity_ids      = [rootly_severity.probe.id]
  incident_type_ids = var.rev == 1 ? [] : [rootly_incident_type.probe.id]
}
