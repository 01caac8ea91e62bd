resource "rootly_workflow_group" "probe" {
  name        = "tf-probe workflow group ${var.rev}"
  description = "revision ${var.rev}"
  kind        = "incident"
  icon        = "🔥"
  expanded    = var.rev == 1
}

resource "rootly_severity" "probe" {
  name     = "tf-probe workflow severity"
  severity = "critical"
}

# The provider's documented example.
resource "rootly_workflow_incident" "probe" {
  name              = "tf-probe incident workflow ${var.rev}"
  description       = "revision ${var.rev}"
  workflow_group_id = rootly_workflow_group.probe.id
  trigger_params {
    triggers                    = var.rev == 1 ? ["incident_created"] : ["incident_created", "incident_updated"]
    incident_condition_kind     = "IS"
    incident_kinds              = ["normal"]
    incident_condition_status   = "IS"
    incident_statuses           = ["started"]
    incident_condition_severity = "IS"
  }
  severity_ids = [rootly_severity.probe.id]
  enabled      = var.rev == 1
}

resource "rootly_workflow_alert" "probe" {
  name        = "tf-probe alert workflow ${var.rev}"
  description = "revision ${var.rev}"
  trigger_params {
    triggers = ["alert_created"]
  }
  enabled = true
}

resource "rootly_workflow_simple" "probe" {
  name        = "tf-probe simple workflow ${var.rev}"
  description = "revision ${var.rev}"
  trigger_params {
    triggers = ["slack_command"]
  }
  enabled = true
}

resource "rootly_workflow_action_item" "probe" {
  name = "tf-probe action item workflow ${var.rev}"
  trigger_params {
    triggers = ["action_item_created"]
  }
  enabled = true
}

# The hosted API's post_mortem trigger variant (beyond the reference's five; docs/workflows.md).
resource "rootly_workflow_post_mortem" "probe" {
  name = "tf-probe retrospective workflow ${var.rev}"
  trigger_params {
    triggers                       = ["post_mortem_updated"]
    incident_post_mortem_condition = "ANY"
    incident_post_mortem_statuses  = var.rev == 1 ? ["draft"] : ["draft", "published"]
  }
  enabled = true
}

resource "rootly_workflow_pulse" "probe" {
  name = "tf-probe pulse workflow ${var.rev}"
  trigger_params {
    triggers = ["pulse_created"]
  }
  enabled = true
}

resource "rootly_form_field" "probe" {
  name       = "tf-probe workflow field"
  kind       = "custom"
  input_kind = "text"
  shown      = ["web_new_incident_form"]
}

resource "rootly_workflow_form_field_condition" "probe" {
  workflow_id        = rootly_workflow_incident.probe.id
  form_field_id      = rootly_form_field.probe.id
  incident_condition = var.rev == 1 ? "IS" : "CONTAINS"
  values             = ["value ${var.rev}"]
}

# rootly_workflow_action_item_form_field_condition is left out: it names an action item form field
# (resource_type action_item, docs/forms.md), and the provider's form field cannot set resource_type
# (computed: its fields are incident fields).
# rootly_workflow_custom_field_selection is left out: the provider types its custom_field_id as a
# number, and Taproot's custom field ids are uuids (docs/forms.md, "Ids are uuids").

# Tasks are stored, not run.
resource "rootly_workflow_task_send_email" "probe" {
  workflow_id     = rootly_workflow_incident.probe.id
  name            = "tf-probe email ${var.rev}"
  position        = 1
  skip_on_failure = false
  enabled         = true
  task_params {
    to      = ["oncall@example.com"]
    subject = "#{{ incident.sequential_id }} {{ incident.title }} (${var.rev})"
    body    = "Status: {{ incident.status }}"
  }
}

resource "rootly_workflow_task_http_client" "probe" {
  workflow_id = rootly_workflow_incident.probe.id
  position    = 2
  task_params {
    url               = "https://example.com/hook/${var.rev}"
    method            = var.rev == 1 ? "POST" : "PUT"
    headers           = jsonencode({ "Content-Type" = "application/json" })
    body              = jsonencode({ title = "{{ incident.title }}" })
    succeed_on_status = "200"
  }
}

resource "rootly_workflow_task_add_to_timeline" "probe" {
  workflow_id = rootly_workflow_incident.probe.id
  position    = 3
  task_params {
    event = "Workflow ran (${var.rev})"
    url   = "https://example.com/${var.rev}"
  }
}

resource "rootly_workflow_task_print" "probe" {
  workflow_id = rootly_workflow_simple.probe.id
  task_params {
    message = "hello ${var.rev}"
  }
}

resource "rootly_workflow_task_create_jira_issue" "probe" {
  workflow_id = rootly_workflow_incident.probe.id
  position    = 4
  task_params {
    project_key = "OPS"
    title       = "{{ incident.title }} ${var.rev}"
    issue_type = {
      id   = "10001"
      name = "Bug"
    }
  }
}
