# Incident communications' settings (docs/communications.md): stored and answered, nothing sent.

# The bootstrap API key's owner, the one user a fresh Taproot has.
data "rootly_user" "owner" {
  email = "owner@taproot.local"
}

resource "rootly_service" "probe" {
  name = "tf-probe communications service"
}

resource "rootly_team" "probe" {
  name = "tf-probe communications team"
}

resource "rootly_communications_type" "probe" {
  name        = "tf-probe outage ${var.rev}"
  description = "Customer-facing outage ${var.rev}"
  color       = var.rev == 1 ? "#D0021B" : "#F5A623"
  position    = var.rev
}

resource "rootly_communications_stage" "investigating" {
  name        = "tf-probe investigating ${var.rev}"
  description = "We are looking into it ${var.rev}"
  position    = var.rev
}

resource "rootly_communications_stage" "resolved" {
  name = "tf-probe resolved ${var.rev}"
}

resource "rootly_communications_template" "probe" {
  name                  = "tf-probe notice ${var.rev}"
  description           = "Sent to customers ${var.rev}"
  communication_type_id = rootly_communications_type.probe.id
  position              = var.rev

  communication_template_stages {
    communication_stage_id = rootly_communications_stage.investigating.id
    sms_content            = "Investigating ${var.rev}"
    email_subject          = "Investigating ${var.rev}"
    email_body             = "We are investigating an outage ${var.rev}."
    slack_content          = "Investigating ${var.rev}"
  }

  communication_template_stages {
    communication_stage_id = rootly_communications_stage.resolved.id
    sms_content            = "Resolved ${var.rev}"
  }
}

resource "rootly_communications_group" "probe" {
  name                  = "tf-probe stakeholders ${var.rev}"
  description           = "Executives ${var.rev}"
  communication_type_id = rootly_communications_type.probe.id
  is_private            = var.rev == 2
  condition_type        = var.rev == 1 ? "any" : "all"
  email_channel         = true
  sms_channel           = var.rev == 2

  communication_group_members {
    user_id = data.rootly_user.owner.id
  }

  communication_group_conditions {
    property_type = "service"
    properties {
      id = rootly_service.probe.id
    }
  }

  communication_group_conditions {
    property_type = "group"
    properties {
      id = rootly_team.probe.id
    }
  }

  communication_external_group_members {
    name         = "Ada ${var.rev}"
    email        = "ada@example.com"
    phone_number = "+1555555010${var.rev}"
  }
}
