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
  # Zones are the reference's enum, Rails names among them: answered as sent.
  business_hours {
    days       = var.rev == 1 ? ["M", "T", "W", "R", "F"] : ["M", "W"]
    start_time = "09:00"
    end_time   = var.rev == 1 ? "17:00" : "18:30"
    time_zone  = var.rev == 1 ? "Eastern Time (US & Canada)" : "Europe/Paris"
  }
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
  time_restriction_time_zone = var.rev == 1 ? "Tokyo" : "International Date Line West"
  time_restrictions {
    start_day  = "monday"
    start_time = "09:00"
    end_day    = "friday"
    end_time   = var.rev == 1 ? "17:00" : "18:00"
  }
}

# A deferral path holding alerts back at night (the provider takes IANA names only there).
resource "rootly_escalation_path" "nights" {
  name                    = "tf-probe nights ${var.rev}"
  path_type               = "deferral"
  escalation_policy_id    = rootly_escalation_policy.probe.id
  after_deferral_behavior = "re_evaluate"
  rules {
    rule_type = "deferral_window"
    time_zone = var.rev == 1 ? "America/New_York" : "Asia/Tokyo"
    time_blocks {
      monday     = true
      friday     = var.rev == 2
      start_time = "22:00"
      end_time   = "06:00"
    }
  }
}
