resource "rootly_dashboard" "probe" {
  name   = "tf-probe dashboard ${var.rev}"
  owner  = "team"
  public = var.rev == 2
}

resource "rootly_dashboard_panel" "probe" {
  dashboard_id = rootly_dashboard.probe.id
  name         = "Incidents ${var.rev}"
  params {
    display = var.rev == 1 ? "line_chart" : "column_chart"
    datasets {
      collection = "incidents"
      aggregate {
        operation  = "count"
        cumulative = false
      }
    }
  }
  position {
    x = 0
    y = 0
    w = 6
    h = var.rev * 2
  }
}

resource "rootly_alert_urgency" "probe" {
  name        = "tf-probe urgency"
  description = "for the live call router"
}

resource "rootly_service" "probe" {
  name = "tf-probe service"
}

resource "rootly_live_call_router" "probe" {
  name               = "tf-probe line ${var.rev}"
  kind               = var.rev == 1 ? "live" : "voicemail"
  country_code       = "US"
  phone_type         = "local"
  phone_number       = "+14155550142"
  voicemail_greeting = "Leave a message, rev ${var.rev}"
  enabled            = true
  alert_urgency_id   = rootly_alert_urgency.probe.id
  paging_targets {
    id               = rootly_service.probe.id
    type             = "service"
    alert_urgency_id = rootly_alert_urgency.probe.id
  }
}

resource "rootly_form_field" "probe" {
  name       = "tf-probe field ${var.rev}"
  kind       = "custom"
  input_kind = "select"
  shown      = ["web_new_incident_form"]
  required   = var.rev == 2 ? ["web_new_incident_form"] : []
}

resource "rootly_form_field_option" "probe" {
  form_field_id = rootly_form_field.probe.id
  value         = "option ${var.rev}"
  color         = "#047BF8"
  default       = var.rev == 2
  position      = 1
}

resource "rootly_form_set" "probe" {
  name  = "tf-probe form set ${var.rev}"
  forms = ["web_new_incident_form", "web_update_incident_form"]
}

resource "rootly_incident_permission_set" "probe" {
  name = "tf-probe permission set ${var.rev}"
}

resource "rootly_severity" "probe" {
  name     = "tf-probe severity"
  severity = "high"
}

resource "rootly_retrospective_process" "probe" {
  name      = "tf-probe retrospective ${var.rev}"
  copy_from = "starter_template"
  retrospective_process_matching_criteria {
    severity_ids = [rootly_severity.probe.id]
  }
}

resource "rootly_post_mortem_template" "probe" {
  name    = "tf-probe template ${var.rev}"
  content = "<h1>What happened</h1><p>rev ${var.rev}</p>"
}

resource "rootly_edge_connector" "probe" {
  name          = "tf-probe edge ${var.rev}"
  subscriptions = var.rev == 1 ? ["incident.created"] : ["incident.created", "alert.created"]
}

resource "rootly_edge_connector_action" "probe" {
  edge_connector_id = rootly_edge_connector.probe.id
  name              = "tf-probe restart ${var.rev}"
  action_type       = "script"
  timeout           = 30 * var.rev
  parameters {
    name     = "host"
    type     = "string"
    required = true
  }
}
