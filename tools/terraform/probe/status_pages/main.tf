resource "rootly_status_page" "probe" {
  title                 = "tf-probe status ${var.rev}"
  public_title          = "tf-probe public ${var.rev}"
  description           = "revision ${var.rev}"
  success_message       = "All good ${var.rev}"
  failure_message       = "Degraded ${var.rev}"
  show_uptime           = true
  show_uptime_last_days = var.rev == 1 ? 90 : 30
}

resource "rootly_status_page_template" "probe" {
  status_page_id = rootly_status_page.probe.id
  title          = "tf-probe template ${var.rev}"
  body           = "Investigating (${var.rev})"
}
