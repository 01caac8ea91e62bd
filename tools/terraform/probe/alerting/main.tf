data "rootly_alert_field" "title" {
  kind = "title"
}

data "rootly_alert_field" "description" {
  kind = "description"
}

data "rootly_alert_field" "external_url" {
  kind = "external_url"
}

resource "rootly_team" "probe" {
  name = "tf-probe alerting team ${var.rev}"
}

resource "rootly_escalation_policy" "probe" {
  name      = "tf-probe alerting policy"
  group_ids = [rootly_team.probe.id]
}

resource "rootly_alerts_source" "probe" {
  name        = "tf-probe source ${var.rev}"
  source_type = "generic_webhook"

  alert_source_fields_attributes {
    alert_field_id = data.rootly_alert_field.title.id
    template_body  = "Server exploded ${var.rev}"
  }

  alert_source_fields_attributes {
    alert_field_id = data.rootly_alert_field.description.id
    template_body  = "Datacenter is burning down."
  }

  alert_source_fields_attributes {
    alert_field_id = data.rootly_alert_field.external_url.id
    template_body  = "https://example.com/${var.rev}"
  }
}

# The provider's documented alert_route example's source. Its built-in title field id is the hosted
# API's ("538914bc-..."), which Taproot cannot know: the title field is found by kind instead.
resource "rootly_alert_field" "severity_field" {
  name = "Severity ${var.rev}"
}

resource "rootly_alerts_source" "monitoring_source" {
  name        = "tf-probe monitoring ${var.rev}"
  source_type = "generic_webhook"

  alert_source_fields_attributes {
    alert_field_id = data.rootly_alert_field.title.id
    template_body  = "{{ alert.title }}"
  }

  alert_source_fields_attributes {
    alert_field_id = rootly_alert_field.severity_field.id
    template_body  = "{{ alert.severity }}"
  }
}

resource "rootly_alert_routing_rule" "probe" {
  name             = "tf-probe routing rule ${var.rev}"
  alerts_source_id = rootly_alerts_source.probe.id
  destination {
    target_type = "Group"
    target_id   = rootly_team.probe.id
  }
}

resource "rootly_alert_group" "probe" {
  name                 = "tf-probe alert group ${var.rev}"
  condition_type       = "all"
  time_window          = 10 * var.rev
  group_by_alert_title = true
  targets {
    target_type = "Group"
    target_id   = rootly_team.probe.id
  }
}

resource "rootly_heartbeat" "probe" {
  name                     = "tf-probe heartbeat ${var.rev}"
  description              = "revision ${var.rev}"
  interval                 = 10 * var.rev
  interval_unit            = "minutes"
  alert_summary            = "tf-probe heartbeat missed ${var.rev}"
  notification_target_type = "Group"
  notification_target_id   = rootly_team.probe.id
  enabled                  = true
}

resource "rootly_alert_route" "probe" {
  name              = "tf-probe route ${var.rev}"
  alerts_source_ids = [rootly_alerts_source.probe.id]
  owning_team_ids   = [rootly_team.probe.id]
  enabled           = true

  rules {
    name = "tf-probe rule ${var.rev}"
    destinations {
      target_type = "EscalationPolicy"
      target_id   = rootly_escalation_policy.probe.id
    }
    condition_groups {
      position = 1
      conditions {
        conditionable_type            = "AlertField"
        conditionable_id              = data.rootly_alert_field.title.id
        property_field_type           = "alert_field"
        property_field_condition_type = "is_one_of"
        property_field_values         = ["sev${var.rev}"]
      }
    }
  }
}

# Without rules the provider sends no request_id and polls nothing.
resource "rootly_alert_route" "bare" {
  name              = "tf-probe bare route ${var.rev}"
  alerts_source_ids = [rootly_alerts_source.probe.id]
  enabled           = var.rev == 1
}

resource "rootly_alert_urgency" "probe" {
  name        = "tf-probe urgency ${var.rev}"
  description = "tf"
}

# The provider's acceptance-test configurations (resource_alert_group_test.go).
resource "rootly_alert_group" "by_payload" {
  name        = "tf-probe by payload ${var.rev}"
  description = "tf"
  targets {
    target_type = "Group"
    target_id   = rootly_team.probe.id
  }
  conditions {
    property_field_type           = "payload"
    property_field_name           = "monitor_id"
    property_field_condition_type = "matches_existing_alert"
  }
}

resource "rootly_alert_group" "by_urgency" {
  name        = "tf-probe by urgency ${var.rev}"
  description = "tf"
  conditions {
    property_field_type           = "attribute"
    property_field_name           = "alert_urgency"
    property_field_condition_type = "matches_existing_alert"
    values {
      record_id   = rootly_alert_urgency.probe.id
      record_type = "AlertUrgency"
    }
  }
}

resource "rootly_alert_routing_rule" "with_conditions" {
  name             = "tf-probe routing rule with conditions ${var.rev}"
  alerts_source_id = rootly_alerts_source.probe.id
  condition_type   = "any"
  conditions {
    property_field_type           = "payload"
    property_field_name           = "$.service"
    property_field_condition_type = "is_one_of"
    property_field_values         = ["checkout-${var.rev}", "billing"]
  }
  destination {
    target_type = "EscalationPolicy"
    target_id   = rootly_escalation_policy.probe.id
  }
}
