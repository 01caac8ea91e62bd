resource "rootly_team" "probe" {
  name = "tf-probe team ${var.rev}"
}

resource "rootly_schedule" "probe" {
  name = "tf-probe schedule ${var.rev}"
}

resource "rootly_escalation_policy" "probe" {
  name         = "tf-probe policy ${var.rev}"
  description  = "revision ${var.rev}"
  repeat_count = var.rev
  group_ids    = [rootly_team.probe.id]
}

resource "rootly_escalation_path" "default" {
  name                 = "Default ${var.rev}"
  default              = true
  escalation_policy_id = rootly_escalation_policy.probe.id
}

resource "rootly_escalation_level" "first" {
  escalation_policy_path_id = rootly_escalation_path.default.id
  escalation_policy_id      = rootly_escalation_policy.probe.id
  position                  = 1
  delay                     = 5 * var.rev
  notification_target_params {
    type         = "schedule"
    id           = rootly_schedule.probe.id
    team_members = "all"
  }
}

resource "rootly_alert_urgency" "low" {
  name        = "tf-probe low ${var.rev}"
  description = "revision ${var.rev}"
}

# The provider's example: a second path taken for one urgency.
resource "rootly_escalation_path" "by_urgency" {
  name                 = "tf-probe by urgency ${var.rev}"
  default              = false
  escalation_policy_id = rootly_escalation_policy.probe.id
  rules {
    rule_type   = "alert_urgency"
    urgency_ids = [rootly_alert_urgency.low.id]
  }
}
