# Data sources look up what this configuration makes, by each filter they offer that names one
# record (name, slug, ...); each postcondition requires the record found to be the one made.

resource "rootly_severity" "ds" {
  name     = "tf-probe ds severity ${var.rev}"
  severity = "low"
}

data "rootly_severity" "by_name" {
  name = rootly_severity.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_severity.ds.id
      error_message = "rootly_severity by name found ${self.id}, not ${rootly_severity.ds.id}"
    }
  }
}

data "rootly_severity" "by_slug" {
  slug = rootly_severity.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_severity.ds.id
      error_message = "rootly_severity by slug found ${self.id}, not ${rootly_severity.ds.id}"
    }
  }
}

resource "rootly_environment" "ds" {
  name = "tf-probe ds environment ${var.rev}"
}

data "rootly_environment" "by_name" {
  name = rootly_environment.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_environment.ds.id
      error_message = "rootly_environment by name found ${self.id}, not ${rootly_environment.ds.id}"
    }
  }
}

data "rootly_environment" "by_slug" {
  slug = rootly_environment.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_environment.ds.id
      error_message = "rootly_environment by slug found ${self.id}, not ${rootly_environment.ds.id}"
    }
  }
}

resource "rootly_functionality" "ds" {
  name = "tf-probe ds functionality ${var.rev}"
}

data "rootly_functionality" "by_name" {
  name = rootly_functionality.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_functionality.ds.id
      error_message = "rootly_functionality by name found ${self.id}, not ${rootly_functionality.ds.id}"
    }
  }
}

data "rootly_functionality" "by_slug" {
  slug = rootly_functionality.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_functionality.ds.id
      error_message = "rootly_functionality by slug found ${self.id}, not ${rootly_functionality.ds.id}"
    }
  }
}

resource "rootly_service" "ds" {
  name = "tf-probe ds service ${var.rev}"
}

data "rootly_service" "by_name" {
  name = rootly_service.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_service.ds.id
      error_message = "rootly_service by name found ${self.id}, not ${rootly_service.ds.id}"
    }
  }
}

data "rootly_service" "by_slug" {
  slug = rootly_service.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_service.ds.id
      error_message = "rootly_service by slug found ${self.id}, not ${rootly_service.ds.id}"
    }
  }
}

resource "rootly_team" "ds" {
  name = "tf-probe ds team ${var.rev}"
}

data "rootly_team" "by_name" {
  name = rootly_team.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_team.ds.id
      error_message = "rootly_team by name found ${self.id}, not ${rootly_team.ds.id}"
    }
  }
}

data "rootly_team" "by_slug" {
  slug = rootly_team.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_team.ds.id
      error_message = "rootly_team by slug found ${self.id}, not ${rootly_team.ds.id}"
    }
  }
}

resource "rootly_cause" "ds" {
  name = "tf-probe ds cause ${var.rev}"
}

data "rootly_cause" "by_name" {
  name = rootly_cause.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_cause.ds.id
      error_message = "rootly_cause by name found ${self.id}, not ${rootly_cause.ds.id}"
    }
  }
}

data "rootly_cause" "by_slug" {
  slug = rootly_cause.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_cause.ds.id
      error_message = "rootly_cause by slug found ${self.id}, not ${rootly_cause.ds.id}"
    }
  }
}

resource "rootly_incident_type" "ds" {
  name = "tf-probe ds incident type ${var.rev}"
}

data "rootly_incident_type" "by_name" {
  name = rootly_incident_type.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_incident_type.ds.id
      error_message = "rootly_incident_type by name found ${self.id}, not ${rootly_incident_type.ds.id}"
    }
  }
}

data "rootly_incident_type" "by_slug" {
  slug = rootly_incident_type.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_incident_type.ds.id
      error_message = "rootly_incident_type by slug found ${self.id}, not ${rootly_incident_type.ds.id}"
    }
  }
}

resource "rootly_incident_role" "ds" {
  name    = "tf-probe ds incident role ${var.rev}"
  summary = "Leads"
}

data "rootly_incident_role" "by_name" {
  name = rootly_incident_role.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_incident_role.ds.id
      error_message = "rootly_incident_role by name found ${self.id}, not ${rootly_incident_role.ds.id}"
    }
  }
}

data "rootly_incident_role" "by_slug" {
  slug = rootly_incident_role.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_incident_role.ds.id
      error_message = "rootly_incident_role by slug found ${self.id}, not ${rootly_incident_role.ds.id}"
    }
  }
}

resource "rootly_escalation_policy" "ds" {
  name      = "tf-probe ds policy ${var.rev}"
  group_ids = [rootly_team.ds.id]
}

data "rootly_escalation_policy" "by_name" {
  name = rootly_escalation_policy.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_escalation_policy.ds.id
      error_message = "rootly_escalation_policy by name found ${self.id}, not ${rootly_escalation_policy.ds.id}"
    }
  }
}

resource "rootly_schedule" "ds" {
  name = "tf-probe ds schedule ${var.rev}"
}

data "rootly_schedule" "by_name" {
  name = rootly_schedule.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_schedule.ds.id
      error_message = "rootly_schedule by name found ${self.id}, not ${rootly_schedule.ds.id}"
    }
  }
}

resource "rootly_workflow_simple" "ds" {
  name = "tf-probe ds workflow ${var.rev}"
  trigger_params {
    triggers = ["slack_command"]
  }
}

data "rootly_workflow" "by_name" {
  name = rootly_workflow_simple.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_workflow_simple.ds.id
      error_message = "rootly_workflow by name found ${self.id}, not ${rootly_workflow_simple.ds.id}"
    }
  }
}

data "rootly_workflow" "by_slug" {
  slug = rootly_workflow_simple.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_workflow_simple.ds.id
      error_message = "rootly_workflow by slug found ${self.id}, not ${rootly_workflow_simple.ds.id}"
    }
  }
}

resource "rootly_workflow_group" "ds" {
  name = "tf-probe ds workflow group ${var.rev}"
  kind = "simple"
}

data "rootly_workflow_group" "by_name" {
  name = rootly_workflow_group.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_workflow_group.ds.id
      error_message = "rootly_workflow_group by name found ${self.id}, not ${rootly_workflow_group.ds.id}"
    }
  }
}

data "rootly_workflow_group" "by_slug" {
  slug = rootly_workflow_group.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_workflow_group.ds.id
      error_message = "rootly_workflow_group by slug found ${self.id}, not ${rootly_workflow_group.ds.id}"
    }
  }
}

resource "rootly_status_page" "ds" {
  title = "tf-probe ds status ${var.rev}"
}

data "rootly_status_page" "by_slug" {
  slug = rootly_status_page.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_status_page.ds.id
      error_message = "rootly_status_page by slug found ${self.id}, not ${rootly_status_page.ds.id}"
    }
  }
}

resource "rootly_alert_urgency" "ds" {
  name        = "tf-probe ds urgency ${var.rev}"
  description = "tf"
}

data "rootly_alert_urgency" "by_name" {
  name = rootly_alert_urgency.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_alert_urgency.ds.id
      error_message = "rootly_alert_urgency by name found ${self.id}, not ${rootly_alert_urgency.ds.id}"
    }
  }
}

resource "rootly_heartbeat" "ds" {
  name                     = "tf-probe ds heartbeat ${var.rev}"
  interval                 = 10
  interval_unit            = "minutes"
  alert_summary            = "missed"
  notification_target_type = "Group"
  notification_target_id   = rootly_team.ds.id
}

data "rootly_heartbeat" "by_name" {
  name = rootly_heartbeat.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_heartbeat.ds.id
      error_message = "rootly_heartbeat by name found ${self.id}, not ${rootly_heartbeat.ds.id}"
    }
  }
}

resource "rootly_catalog" "ds" {
  name = "tf-probe ds catalog ${var.rev}"
}

data "rootly_catalog" "by_name" {
  name = rootly_catalog.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_catalog.ds.id
      error_message = "rootly_catalog by name found ${self.id}, not ${rootly_catalog.ds.id}"
    }
  }
}

resource "rootly_form_field" "ds" {
  name       = "tf-probe ds field ${var.rev}"
  kind       = "custom"
  input_kind = "text"
}

data "rootly_form_field" "by_name" {
  name = rootly_form_field.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_form_field.ds.id
      error_message = "rootly_form_field by name found ${self.id}, not ${rootly_form_field.ds.id}"
    }
  }
}

data "rootly_form_field" "by_slug" {
  slug = rootly_form_field.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_form_field.ds.id
      error_message = "rootly_form_field by slug found ${self.id}, not ${rootly_form_field.ds.id}"
    }
  }
}

resource "rootly_custom_form" "ds" {
  name    = "tf-probe ds custom form ${var.rev}"
  command = "tf-probe-ds-${var.rev}"
}

data "rootly_custom_form" "by_name" {
  name = rootly_custom_form.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_custom_form.ds.id
      error_message = "rootly_custom_form by name found ${self.id}, not ${rootly_custom_form.ds.id}"
    }
  }
}

data "rootly_custom_form" "by_slug" {
  slug = rootly_custom_form.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_custom_form.ds.id
      error_message = "rootly_custom_form by slug found ${self.id}, not ${rootly_custom_form.ds.id}"
    }
  }
}

data "rootly_custom_form" "by_command" {
  command = rootly_custom_form.ds.command
  lifecycle {
    postcondition {
      condition     = self.id == rootly_custom_form.ds.id
      error_message = "rootly_custom_form by command found ${self.id}, not ${rootly_custom_form.ds.id}"
    }
  }
}

resource "rootly_role" "ds" {
  name                 = "tf-probe ds role ${var.rev}"
  services_permissions = ["read"]
}

data "rootly_role" "by_name" {
  name = rootly_role.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_role.ds.id
      error_message = "rootly_role by name found ${self.id}, not ${rootly_role.ds.id}"
    }
  }
}

data "rootly_role" "by_slug" {
  slug = rootly_role.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_role.ds.id
      error_message = "rootly_role by slug found ${self.id}, not ${rootly_role.ds.id}"
    }
  }
}

resource "rootly_on_call_role" "ds" {
  name                  = "tf-probe ds on-call role ${var.rev}"
  schedules_permissions = ["read"]
}

data "rootly_on_call_role" "by_name" {
  name = rootly_on_call_role.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_on_call_role.ds.id
      error_message = "rootly_on_call_role by name found ${self.id}, not ${rootly_on_call_role.ds.id}"
    }
  }
}

data "rootly_on_call_role" "by_slug" {
  slug = rootly_on_call_role.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_on_call_role.ds.id
      error_message = "rootly_on_call_role by slug found ${self.id}, not ${rootly_on_call_role.ds.id}"
    }
  }
}

resource "rootly_incident_permission_set" "ds" {
  name = "tf-probe ds permission set ${var.rev}"
}

data "rootly_incident_permission_set" "by_name" {
  name = rootly_incident_permission_set.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_incident_permission_set.ds.id
      error_message = "rootly_incident_permission_set by name found ${self.id}, not ${rootly_incident_permission_set.ds.id}"
    }
  }
}

data "rootly_incident_permission_set" "by_slug" {
  slug = rootly_incident_permission_set.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_incident_permission_set.ds.id
      error_message = "rootly_incident_permission_set by slug found ${self.id}, not ${rootly_incident_permission_set.ds.id}"
    }
  }
}

resource "rootly_sla" "ds" {
  name                              = "tf-probe ds SLA ${var.rev}"
  condition_match_type              = "ALL"
  assignment_deadline_days          = 3
  assignment_deadline_parent_status = "started"
  completion_deadline_days          = 5
  completion_deadline_parent_status = "resolved"
  manager_role_id                   = rootly_incident_role.ds.id
  conditions {
    conditionable_type = "SLAs::BuiltInFieldCondition"
    property           = "severity"
    operator           = "is_one_of"
    values             = [rootly_severity.ds.id]
  }
}

data "rootly_sla" "by_name" {
  name = rootly_sla.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_sla.ds.id
      error_message = "rootly_sla by name found ${self.id}, not ${rootly_sla.ds.id}"
    }
  }
}

data "rootly_sla" "by_slug" {
  slug = rootly_sla.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_sla.ds.id
      error_message = "rootly_sla by slug found ${self.id}, not ${rootly_sla.ds.id}"
    }
  }
}

resource "rootly_sub_status" "ds" {
  name          = "tf-probe ds sub-status ${var.rev}"
  parent_status = "started"
}

data "rootly_sub_status" "by_name" {
  name = rootly_sub_status.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_sub_status.ds.id
      error_message = "rootly_sub_status by name found ${self.id}, not ${rootly_sub_status.ds.id}"
    }
  }
}

data "rootly_sub_status" "by_slug" {
  slug = rootly_sub_status.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_sub_status.ds.id
      error_message = "rootly_sub_status by slug found ${self.id}, not ${rootly_sub_status.ds.id}"
    }
  }
}

data "rootly_sub_status" "by_parent_status" {
  parent_status = rootly_sub_status.ds.parent_status
  lifecycle {
    postcondition {
      condition     = self.id == rootly_sub_status.ds.id
      error_message = "rootly_sub_status by parent_status found ${self.id}, not ${rootly_sub_status.ds.id}"
    }
  }
}

resource "rootly_webhooks_endpoint" "ds" {
  name        = "tf-probe ds endpoint ${var.rev}"
  url         = "https://example.com/ds/${var.rev}"
  event_types = ["incident.created"]
}

data "rootly_webhooks_endpoint" "by_name" {
  name = rootly_webhooks_endpoint.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_webhooks_endpoint.ds.id
      error_message = "rootly_webhooks_endpoint by name found ${self.id}, not ${rootly_webhooks_endpoint.ds.id}"
    }
  }
}

data "rootly_webhooks_endpoint" "by_slug" {
  slug = rootly_webhooks_endpoint.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_webhooks_endpoint.ds.id
      error_message = "rootly_webhooks_endpoint by slug found ${self.id}, not ${rootly_webhooks_endpoint.ds.id}"
    }
  }
}

resource "rootly_communications_type" "ds" {
  name  = "tf-probe ds comms type ${var.rev}"
  color = "#D0021B"
}

data "rootly_communications_type" "by_name" {
  name = rootly_communications_type.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_communications_type.ds.id
      error_message = "rootly_communications_type by name found ${self.id}, not ${rootly_communications_type.ds.id}"
    }
  }
}

data "rootly_communications_type" "by_slug" {
  slug = rootly_communications_type.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_communications_type.ds.id
      error_message = "rootly_communications_type by slug found ${self.id}, not ${rootly_communications_type.ds.id}"
    }
  }
}

resource "rootly_communications_stage" "ds" {
  name = "tf-probe ds comms stage ${var.rev}"
}

data "rootly_communications_stage" "by_name" {
  name = rootly_communications_stage.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_communications_stage.ds.id
      error_message = "rootly_communications_stage by name found ${self.id}, not ${rootly_communications_stage.ds.id}"
    }
  }
}

data "rootly_communications_stage" "by_slug" {
  slug = rootly_communications_stage.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_communications_stage.ds.id
      error_message = "rootly_communications_stage by slug found ${self.id}, not ${rootly_communications_stage.ds.id}"
    }
  }
}

resource "rootly_alert_field" "ds" {
  name = "tf-probe ds alert field ${var.rev}"
}

data "rootly_alert_field" "by_name" {
  name = rootly_alert_field.ds.name
  lifecycle {
    postcondition {
      condition     = self.id == rootly_alert_field.ds.id
      error_message = "rootly_alert_field by name found ${self.id}, not ${rootly_alert_field.ds.id}"
    }
  }
}

resource "rootly_form_set" "ds" {
  name  = "tf-probe ds form set ${var.rev}"
  forms = ["slack_new_incident_form"]
}

data "rootly_form_set" "by_slug" {
  slug = rootly_form_set.ds.slug
  lifecycle {
    postcondition {
      condition     = self.id == rootly_form_set.ds.id
      error_message = "rootly_form_set by slug found ${self.id}, not ${rootly_form_set.ds.id}"
    }
  }
}

# Plural data sources: the record made is among those found by name. rootly_severities is left
# out: this build's data source reads a `color` it does not declare, and crashes.

data "rootly_services" "by_name" {
  name = rootly_service.ds.name
  lifecycle {
    postcondition {
      condition     = contains(self.services[*].id, rootly_service.ds.id)
      error_message = "rootly_services by name lacks ${rootly_service.ds.id}"
    }
  }
}

data "rootly_teams" "by_name" {
  name = rootly_team.ds.name
  lifecycle {
    postcondition {
      condition     = contains(self.teams[*].id, rootly_team.ds.id)
      error_message = "rootly_teams by name lacks ${rootly_team.ds.id}"
    }
  }
}

data "rootly_environments" "by_name" {
  name = rootly_environment.ds.name
  lifecycle {
    postcondition {
      condition     = contains(self.environments[*].id, rootly_environment.ds.id)
      error_message = "rootly_environments by name lacks ${rootly_environment.ds.id}"
    }
  }
}

data "rootly_causes" "by_name" {
  name = rootly_cause.ds.name
  lifecycle {
    postcondition {
      condition     = contains(self.causes[*].id, rootly_cause.ds.id)
      error_message = "rootly_causes by name lacks ${rootly_cause.ds.id}"
    }
  }
}

data "rootly_incident_types" "by_name" {
  name = rootly_incident_type.ds.name
  lifecycle {
    postcondition {
      condition     = contains(self.incident_types[*].id, rootly_incident_type.ds.id)
      error_message = "rootly_incident_types by name lacks ${rootly_incident_type.ds.id}"
    }
  }
}

data "rootly_functionalities" "by_name" {
  name = rootly_functionality.ds.name
  lifecycle {
    postcondition {
      condition     = contains(self.functionalities[*].id, rootly_functionality.ds.id)
      error_message = "rootly_functionalities by name lacks ${rootly_functionality.ds.id}"
    }
  }
}

data "rootly_incident_roles" "by_name" {
  name = rootly_incident_role.ds.name
  lifecycle {
    postcondition {
      condition     = contains(self.incident_roles[*].id, rootly_incident_role.ds.id)
      error_message = "rootly_incident_roles by name lacks ${rootly_incident_role.ds.id}"
    }
  }
}
